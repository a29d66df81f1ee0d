# syntax=docker/dockerfile:1.7
# API B, built from the monorepo root: docker build -f docker/api-b.Dockerfile .
# Stage 1 installs the workspace from the lockfile, builds the app and the Weft packages it uses, and
# `pnpm deploy --prod` copies just that app with its production dependencies into /out.
FROM node:22.20.0-bookworm-slim AS build
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH CI=true TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
RUN npm install -g pnpm@12.21.0
WORKDIR /repo
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm config set store-dir /pnpm/store && pnpm fetch
COPY . .
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm install --offline --frozen-lockfile
RUN pnpm exec turbo run build --filter=@weft/api-b...
RUN --mount=type=cache,id=pnpm-store,target=/pnpm/store pnpm --filter @weft/api-b deploy --prod /out

# Stage 2: only the deployed folder, run as the unprivileged `node` user.
FROM node:22.20.0-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /out ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Migrations first (a failed migration stops the container), then the server as PID 1's child-free exec.
CMD ["sh", "-c", "node dist/db/migrate.js && exec node dist/server.js"]
