# Server image for the at-scale deployment (docker-compose.yml): the api (node dist/api.js) and
# the collector (node dist/collector.js) run from it as separate containers.
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY schemas/package.json schemas/
COPY collector/package.json collector/
COPY api/package.json api/
COPY agent/package.json agent/
COPY console/package.json console/
COPY scripts/package.json scripts/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist
USER node
EXPOSE 8080
CMD ["node", "dist/api.js"]
