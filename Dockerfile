# syntax=docker/dockerfile:1
# tx-enrich worker image. Build: docker build -t tx-enrich . (docker-compose.yml does it for you).

# --- build: full dependencies, compile TypeScript to dist/ -------------------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY data ./data
COPY schemas ./schemas
RUN npm run build

# --- runtime: production dependencies only, non-root ------------------------------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY data ./data
COPY schemas ./schemas
# The node image's unprivileged user (uid 1000).
USER node
# Outside a container the ports bind loopback by default; inside one, the container's network is
# the boundary and probes, scrapers and published ports arrive on its interface (docs/decisions.md).
ENV HEALTH_HOST=0.0.0.0 API_HOST=0.0.0.0
# HTTP_PORT (worker health, metrics), API_PORT (HTTP enrichment API), API_OPS_PORT (API metrics).
EXPOSE 9464 8080 9465
# The worker's node options (src/cli/worker-command.ts, WORKER_NODE_OPTIONS): a larger young generation
# for its micro-batches, and no pretenuring of their short-lived results (bin/tx-enrich.js).
CMD ["node", "--max-semi-space-size=64", "--no-allocation-site-pretenuring", "bin/tx-enrich.js", "worker"]
