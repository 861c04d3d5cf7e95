import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { AppConfig, ConfigError, loadAppConfig } from './config';
import { createApp, listen } from './app.factory';
import { runSignInLinkCommand, SIGN_IN_LINK_COMMAND } from './modules/sign-in-links/sign-in-link.command';

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

async function start(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (command === SIGN_IN_LINK_COMMAND) {
    process.exitCode = await runSignInLinkCommand(args, process.env, { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) });
    return;
  }
  await main();
}

start().catch((error: unknown) => {
  process.stderr.write(`The server failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
