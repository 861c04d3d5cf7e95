import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { AppConfig, ConfigError, loadAppConfig } from './config';
import { createApp, listen } from './app.factory';

async function main(): Promise<void> {
  // Validate first so a bad environment gives a readable list instead of a stack trace from deep inside Nest.
  let config: AppConfig;
  try {
    config = loadAppConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp();
  await listen(app, config);
  app.get(Logger).log(`System Context Service listening on ${config.host} port ${config.port}; open ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`The server failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
