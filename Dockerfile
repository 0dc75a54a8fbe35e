# One instance of the service from a production install: `npm ci --omit=dev` (Bun comes
# from npm as a runtime dependency), run by an unprivileged user, partner databases and
# the registry in the /data volume, /readyz as the health check, Bun as PID 1 so the
# stop signal reaches the server. See README "Deployment".
#   docker build -t asset-planning-api .
#   docker run -d -p 3000:3000 -v asset-data:/data --stop-timeout 30 \
#     -e DASHBOARD_JWT_SECRET=… -e DATA_KEK=… asset-planning-api
FROM node:20-bookworm-slim

ENV NODE_ENV=production \
    PORT=3000 \
    TENANTS_DIR=/data

WORKDIR /app

# Dependencies first: a change to the code reuses this layer. allowScripts in package.json
# lets bun's postinstall link its binary; --ignore-scripts=false overrides a global opt-out.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts=false --no-audit --no-fund \
 && npm cache clean --force

# The code stays owned by root (read-only for the service); only /data is the service's.
COPY . .
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data
USER node
VOLUME /data
EXPOSE 3000

# Ready: the registry answers, the content store is usable, clamd (if configured) answers;
# 503 otherwise and from the start of a graceful stop. No curl in the slim image: Bun's fetch.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["/app/node_modules/.bin/bun", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]

# Bun itself is PID 1 (no npm, no shell): SIGTERM from `docker stop` reaches the server,
# which stops gracefully (SHUTDOWN_DRAIN_MS, then in-flight requests up to 10 s, then jobs);
# give it a stop timeout above that (`--stop-timeout 30`, compose `stop_grace_period: 30s`).
STOPSIGNAL SIGTERM
CMD ["/app/node_modules/.bin/bun", "run", "src/main.ts"]
