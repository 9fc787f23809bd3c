import { ConfigError } from '@flightdeck/schemas';
import pino from 'pino';
import { startFlightdeck } from './all-in-one';

/** `npm start`: the whole product in one process on http://localhost:8080 (PORT overrides). */
const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
});

try {
  const running = await startFlightdeck(process.env, logger);
  if (running.admin.created) {
    const lines = [
      'First start: the system administrator was created.',
      `  e-mail:   ${running.admin.email}`,
      ...(running.admin.password
        ? [`  password: ${running.admin.password}   (shown once: keep it now)`]
        : []),
    ];
    process.stdout.write(`\n${lines.join('\n')}\n\n`);
  }
  process.stdout.write(`Flightdeck listening on ${running.url}\n`);

  const stop = (signal: string) => {
    logger.info({ signal }, 'stopping: writing the batches in flight');
    running.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`flightdeck: ${err.message}\n`);
    process.exit(2);
  }
  throw err;
}
