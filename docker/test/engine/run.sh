#!/usr/bin/env bash
# Builds both API images from docker/Dockerfile and runs docker/compose.yaml on a real Docker engine,
# then checks the running stack from outside (checks.mjs). Everything happens on a dockerd of our own:
#   - data root   $WEFT_DOCKERD_ROOT (default /var/tmp/weft-dockerd): images and BuildKit's cache
#                 survive between runs on the same machine, so a warm run rebuilds nothing;
#   - exec root, socket, pid file, log: a fresh temp folder, removed at the end;
#   - its own bridge (weft0) and address pool; never /var/lib/docker, never /var/run/docker.sock.
# Public image registries are unreachable here, so the base images the Dockerfile and compose file
# name (node:<v>-bookworm-slim, postgres:<major>-bookworm) are stand-ins built locally (standins/) from
# a debootstrapped Debian cached under $WEFT_DOCKER_CACHE (default /var/cache/weft-docker).
# Whatever happens, the trap removes the stack, stops the daemon by PID, and removes its bridge and
# iptables rules. Exits non-zero when a step or a check fails.
set -Eeuo pipefail
exec </dev/null

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
cache=${WEFT_DOCKER_CACHE:-/var/cache/weft-docker}
data_root=${WEFT_DOCKERD_ROOT:-/var/tmp/weft-dockerd}
bridge=weft0
bridge_cidr=172.31.255.1/24
address_pool=172.31.0.0/17
run_dir=$(mktemp -d /tmp/weft-engine.XXXXXX)
started=$SECONDS
step_label=engine
# The daemon, the stand-in base images and the timings, shared with docker/test/fresh-machine/run.sh.
# shellcheck source=../lib/dockerd.sh
. "$here/../lib/dockerd.sh"

# ---- the cleanup that always runs --------------------------------------------------
ip_forward_before=$(cat /proc/sys/net/ipv4/ip_forward)
compose_ready=

cleanup() {
  local status=$?
  set +e
  trap - EXIT INT TERM
  printf '\n=== engine: cleanup\n'
  if [ -n "$dockerd_pid" ] && kill -0 "$dockerd_pid" 2>/dev/null && [ -n "$compose_ready" ]; then
    [ "$status" -ne 0 ] && compose logs --no-color --tail=80 >&2
    compose down -v --remove-orphans --timeout 20 >/dev/null 2>&1
  fi
  # Anything else this daemon runs (a check interrupted half way), its networks, then the daemon.
  weft_dockerd_stop
  remove_network_state
  echo "$ip_forward_before" >/proc/sys/net/ipv4/ip_forward 2>/dev/null
  [ "$status" -ne 0 ] && [ -f "$run_dir/dockerd.log" ] && tail -n 40 "$run_dir/dockerd.log" >&2
  rm -rf "$run_dir"
  print_timings "$started"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The rules dockerd adds and never removes: the DOCKER* chains and every rule naming our bridges.
# Only done when no other dockerd runs, since such chains would be shared with it.
remove_network_state() {
  local link
  for link in $(ip -o link show type bridge 2>/dev/null | awk -F': ' '{print $2}'); do
    case "$link" in "$bridge" | br-*) ip link set "$link" down 2>/dev/null; ip link del "$link" 2>/dev/null ;; esac
  done
  if pgrep -x dockerd >/dev/null; then
    echo "another dockerd runs: its iptables chains are left alone" >&2
    return
  fi
  local table rule chain
  for table in filter nat; do
    iptables -t "$table" -S 2>/dev/null | grep -E '^-A ' | grep -E 'DOCKER|'"$bridge"'|br-' | grep -vE '^-A DOCKER' |
      while read -r rule; do
        # shellcheck disable=SC2086
        iptables -t "$table" -D ${rule#-A } 2>/dev/null
      done
    for chain in $(iptables -t "$table" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^DOCKER/ {print $2}'); do
      iptables -t "$table" -F "$chain" 2>/dev/null
    done
    for chain in $(iptables -t "$table" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^DOCKER/ {print $2}'); do
      iptables -t "$table" -X "$chain" 2>/dev/null
    done
  done
}

# ---- tools ------------------------------------------------------------------------------------
step "tools (Debian's docker.io, debootstrap; Compose v2 from Debian's docker-compose 2.x)"
weft_docker_tools iptables=iptables
weft_compose_v2 "$cache"
done_step tools

step "dockerd on $run_dir/docker.sock (data root $data_root)"
if ! ip link show "$bridge" >/dev/null 2>&1; then
  ip link add "$bridge" type bridge
  ip addr add "$bridge_cidr" dev "$bridge"
fi
ip link set "$bridge" up
weft_dockerd_start "$data_root" \
  --bridge "$bridge" \
  --default-address-pool "base=$address_pool,size=24" \
  --no-new-privileges=false \
  --userland-proxy=true
done_step "dockerd start"

# ---- base images: the official ones, or stand-ins built here --------------------------------------
node_image=$(awk 'toupper($1) == "FROM" && $2 ~ /^node:/ {print $2; exit}' "$repo/docker/Dockerfile")
pg_image=$(awk '$1 == "image:" && $2 ~ /^postgres:/ {print $2; exit}' "$repo/docker/compose.yaml")
node_version=$(sed -E 's/^node:([0-9.]+)-.*/\1/' <<<"${node_image%@*}")
pg_major=$(sed -E 's/^postgres:([0-9]+)-.*/\1/' <<<"${pg_image%@*}")

step "stand-in base images: $node_image, $pg_image"
weft_standin_debian "$cache"
weft_standin_node "$node_image" "$cache"
if ! weft_have_standin "$pg_image"; then
  docker build -q --network host --build-arg "PG_MAJOR=$pg_major" --label "weft.standin=$weft_standin_hash" \
    -f "$here/standins/postgres.Dockerfile" -t "$pg_image" "$here/standins" >/dev/null
fi
docker run --rm "$node_image" node --version
docker run --rm --entrypoint postgres "$pg_image" --version
done_step "stand-in base images"

# ---- the stack ----------------------------------------------------------------------------------
# Settings and secrets as an operator would write them (docker/.env.example lists them).
secrets=$run_dir/secrets
mkdir -p "$secrets"
for name in api_a_secret api_b_secret api_a_db_password api_b_db_password db_a_admin_password db_b_admin_password; do
  node -e "process.stdout.write(require('crypto').randomBytes(36).toString('base64url'))" >"$secrets/$name"
done
chmod 0755 "$secrets" && chmod 0644 "$secrets"/*
env_file=$run_dir/.env
cat >"$env_file" <<EOF
API_A_PORT=127.0.0.1:3800
API_B_PORT=127.0.0.1:3801
API_A_DB_USER=api_a
API_A_DB_NAME=api_a
API_B_DB_USER=api_b
API_B_DB_NAME=api_b
API_A_SECRET_FILE=$secrets/api_a_secret
API_B_SECRET_FILE=$secrets/api_b_secret
API_A_DB_PASSWORD_FILE=$secrets/api_a_db_password
API_B_DB_PASSWORD_FILE=$secrets/api_b_db_password
DB_A_ADMIN_PASSWORD_FILE=$secrets/db_a_admin_password
DB_B_ADMIN_PASSWORD_FILE=$secrets/db_b_admin_password
EOF

# Compose v2, as docker/README recommends (weft_compose_v2 in ../lib/dockerd.sh says where it comes from):
# the file as it is, `name: weft` included.
compose_args=(-f "$repo/docker/compose.yaml" --project-directory "$repo/docker" --env-file "$env_file")
compose() { docker compose "${compose_args[@]}" "$@"; }
export WEFT_COMPOSE="docker compose ${compose_args[*]}"
compose_ready=1
# A run interrupted before its cleanup may have left the project behind.
compose down -v --remove-orphans --timeout 5 >/dev/null 2>&1 || :

step "build api-a and api-b from docker/Dockerfile"
# Built with `docker build` (the Debian client's own BuildKit, no buildx plugin needed) rather than
# `compose build`, and this machine's registry traffic goes through a TLS-intercepting proxy whose CA the install steps
# need (the Dockerfile's corporate_ca hook). The tags are the ones compose.yaml names.
# The machine's own bundle when nothing names one: extra trusted CAs, harmless where none is needed.
ca=$(weft_corporate_ca)
build_args=()
if [ -n "$ca" ]; then
  build_args+=(--secret "id=corporate_ca,src=$ca")
  echo "corporate CA for the install steps: $ca"
fi
for app in api-a api-b; do
  build_log=$run_dir/build-$app.log
  t0=$SECONDS
  if ! docker build "${build_args[@]}" --build-arg "APP=$app" -f "$repo/docker/Dockerfile" \
    -t "weft/$app:local" "$repo" >"$build_log" 2>&1; then
    tail -n 60 "$build_log" >&2
    exit 1
  fi
  printf '%s: built in %ss, %s of %s steps cached\n' "$app" "$((SECONDS - t0))" \
    "$(grep -cE '^#[0-9]+ CACHED' "$build_log")" "$(grep -cE '^#[0-9]+ \[' "$build_log")"
done
docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E '^(weft/|node:|postgres:)' | sort
done_step "build both images"

step "compose up (waits for every service to be healthy)"
wait_healthy() {
  local service id state
  for _ in $(seq 1 180); do
    local all=1
    for service in db-a db-b api-a api-b; do
      id=$(compose ps -q "$service")
      state=$(docker inspect -f '{{.State.Health.Status}}' "$id" 2>/dev/null || echo missing)
      [ "$state" = healthy ] || all=
    done
    [ -n "$all" ] && return 0
    sleep 1
  done
  compose ps >&2
  return 1
}
compose up -d --no-build >/dev/null 2>&1 || { compose up -d --no-build; exit 1; }
wait_healthy
compose ps
done_step "compose up, all healthy"

export API_A=http://127.0.0.1:3800 API_B=http://127.0.0.1:3801 WEFT_ENGINE_STATE=$run_dir/state.json
checks=0
failures=0
check() {
  local name=$1
  shift
  local t0=$SECONDS
  checks=$((checks + 1))
  if "$@"; then
    printf 'ok    %-70s %3ss\n' "$name" "$((SECONDS - t0))"
  else
    failures=$((failures + 1))
    printf 'FAIL  %-70s %3ss\n' "$name" "$((SECONDS - t0))"
  fi
}

step "checks against the running stack"
container() { compose ps -q "$1"; }
runs_as_non_root() {
  local id
  id=$(docker exec "$(container "$1")" id -u) && [ "$id" != 0 ]
}
cannot_write_code() {
  local c
  c=$(container "$1")
  [ "$(docker exec "$c" stat -c %U /app/dist/server.js)" = root ] &&
    ! docker exec "$c" sh -c 'echo x >>/app/dist/server.js' 2>/dev/null &&
    ! docker exec "$c" sh -c 'touch /app/new-file' 2>/dev/null
}
stops_within_grace() {
  local c t0 grace code
  c=$(container "$1")
  grace=$(docker inspect -f '{{.Config.StopTimeout}}' "$c")
  t0=$(date +%s%N)
  docker stop -t "$grace" "$c" >/dev/null
  local elapsed_ms=$((($(date +%s%N) - t0) / 1000000))
  code=$(docker inspect -f '{{.State.ExitCode}}' "$c")
  echo "      docker stop $1: exit code $code after ${elapsed_ms} ms (grace ${grace}s)"
  [ "$code" = 0 ] && [ "$elapsed_ms" -lt $((grace * 1000)) ]
}

# Without DB_* settings the app falls back to its embedded database: in the image it must either work
# (PGLITE_DIR on the node-owned volume, even with a read-only root) or refuse with a clear message.
embedded_database() {
  local c state logs
  c=$(docker run -d --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges \
    -e SECRET_FILE=/run/secrets/secret -v "$secrets/api_a_secret:/run/secrets/secret:ro" weft/api-a:local)
  for _ in $(seq 1 90); do
    state=$(docker inspect -f '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}' "$c")
    case "$state" in "running healthy" | exited*) break ;; esac
    sleep 1
  done
  logs=$(docker logs "$c" 2>&1 | tail -n 5)
  docker rm -f -v "$c" >/dev/null
  case "$state" in
    "running healthy") echo "      served from the embedded database in /var/lib/weft/pglite" ;;
    exited*) echo "      refused: $logs" && grep -qiE 'database|DB_|PGLITE' <<<"$logs" ;;
    *) echo "      neither healthy nor refused: $state; $logs" && return 1 ;;
  esac
}

# The app's role (made by docker/postgres/initdb) is no superuser and owns the app's tables.
least_privilege_role() {
  local db=$1 role=$2 name=$3 facts
  facts=$(docker exec "$(container "$db")" psql -U postgres -d "$name" -tAc \
    "select rolsuper, rolcreatedb, rolcreaterole, (select count(*) from pg_tables where schemaname = 'public' and tableowner <> '$role')
       from pg_roles where rolname = '$role'")
  echo "      $role: superuser|createdb|createrole|tables owned by others = $facts"
  [ "$facts" = "f|f|f|0" ] &&
    [ "$(docker exec "$(container "$db")" psql -U postgres -d "$name" -tAc "select count(*) from pg_tables where schemaname = 'public'")" -gt 0 ]
}

check "api-a and api-b healthy through 127.0.0.1 ports" node "$here/checks.mjs" health
check "register -> login -> authorised call -> product create/list (api-a)" node "$here/checks.mjs" flow-a
check "register -> login -> authorised call (api-b)" node "$here/checks.mjs" flow-b
check "api-a connects as its own least-privilege role" least_privilege_role db-a api_a api_a
check "api-b connects as its own least-privilege role" least_privilege_role db-b api_b api_b
check "api-a runs as a non-root user" runs_as_non_root api-a
check "api-b runs as a non-root user" runs_as_non_root api-b
check "api-a cannot write its own code (root-owned, read-only)" cannot_write_code api-a
check "api-b cannot write its own code (root-owned, read-only)" cannot_write_code api-b
check "restart db-a under traffic: 503s during, recovery, no acknowledged write lost" \
  node "$here/checks.mjs" restart-db-a
check "api-a without DB settings: embedded database on its volume, or a clear refusal" embedded_database
check "docker stop api-a exits 0 within the grace period" stops_within_grace api-a
check "docker stop api-b exits 0 within the grace period" stops_within_grace api-b
done_step "checks on the first start"

step "down, then up: the data is kept"
compose down --timeout 20 >/dev/null 2>&1
compose up -d --no-build >/dev/null 2>&1
wait_healthy
check "down then up keeps users and products" node "$here/checks.mjs" persisted
done_step "down + up + check"

printf '\nengine: %s passed, %s failed\n' "$((checks - failures))" "$failures"
[ "$failures" -eq 0 ]
