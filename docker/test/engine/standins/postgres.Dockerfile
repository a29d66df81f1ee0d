# Offline stand-in for the official `postgres:<major>-bookworm` image: Debian's own PostgreSQL on a
# debootstrapped bookworm, with the official image's user (uid 999), PGDATA, PATH, volume, stop
# signal and environment interface (see postgres-entrypoint.sh).
FROM weft-standin/debian:bookworm
ARG PG_MAJOR
RUN groupadd -r --gid 999 postgres \
  && useradd -r --gid postgres --uid 999 --home-dir /var/lib/postgresql --shell /bin/bash postgres \
  && mkdir -p /var/lib/postgresql && chown postgres:postgres /var/lib/postgresql
RUN printf "deb http://deb.debian.org/debian bookworm main\ndeb http://deb.debian.org/debian bookworm-updates main\ndeb http://deb.debian.org/debian-security bookworm-security main\n" >/etc/apt/sources.list \
  && apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-common \
  && sed -ri 's/^#?\s*create_main_cluster\s*=.*/create_main_cluster = false/' /etc/postgresql-common/createcluster.conf \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "postgresql-${PG_MAJOR}" \
  && rm -rf /var/lib/apt/lists/* \
  && sed -ri "s!^#?(listen_addresses)\s*=\s*\S+.*!\1 = '*'!" "/usr/share/postgresql/${PG_MAJOR}/postgresql.conf.sample"
ENV PG_MAJOR=${PG_MAJOR} PATH=/usr/lib/postgresql/${PG_MAJOR}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  PGDATA=/var/lib/postgresql/data
RUN mkdir -p /var/run/postgresql /docker-entrypoint-initdb.d "$PGDATA" \
  && chown postgres:postgres /var/run/postgresql "$PGDATA" \
  && chmod 3777 /var/run/postgresql && chmod 1777 "$PGDATA"
VOLUME /var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENTRYPOINT ["docker-entrypoint.sh"]
STOPSIGNAL SIGINT
EXPOSE 5432
CMD ["postgres"]
