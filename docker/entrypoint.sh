#!/bin/sh
# Secrets as files (compose `secrets:`, Docker/Kubernetes secrets): for each VAR_FILE among the settings
# below, VAR is read from that file, so the value never appears in `docker inspect` or the image.
# Then the command runs in its place (exec), so the app is PID 1 and gets SIGTERM from `docker stop`.
set -eu
for var in SECRET DB_PASSWORD DATABASE_URL JWT_SECRET; do
  eval "file=\${${var}_FILE:-}"
  [ -n "$file" ] || continue
  eval "value=\${${var}:-}"
  if [ -n "$value" ]; then
    echo "weft-entrypoint: both $var and ${var}_FILE are set; set only one" >&2
    exit 1
  fi
  if [ ! -r "$file" ]; then
    echo "weft-entrypoint: ${var}_FILE=$file is not a readable file" >&2
    exit 1
  fi
  value=$(cat "$file")
  export "$var=$value"
  unset "${var}_FILE"
done
exec "$@"
