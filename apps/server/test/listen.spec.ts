import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connect, type AddressInfo } from 'node:net';
import { listen } from '../src/app.factory';
import { loadAppConfig } from '../src/config/app-config';

@Module({})
class EmptyModule {}

/** Resolves true when a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('listening address', () => {
  it('binds to HOST only', async () => {
    // 127.0.0.2 is loopback too (127.0.0.0/8), so the test needs no network, yet 127.0.0.1 must be refused.
    const config = loadAppConfig({ HOST: '127.0.0.2', PORT: '0', SERVICE_SECRET_KEY: Buffer.alloc(32, 1).toString('base64') });
    const app = await NestFactory.create(EmptyModule, { logger: false });
    try {
      await listen(app, config);
      const address = app.getHttpServer().address() as AddressInfo;
      expect(address.address).toBe('127.0.0.2');
      expect(await accepts('127.0.0.2', address.port)).toBe(true);
      expect(await accepts('127.0.0.1', address.port)).toBe(false);
    } finally {
      await app.close();
    }
  });
});
