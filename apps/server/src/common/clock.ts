import { Injectable } from '@nestjs/common';

/** The current time, injected so tests can move it (session expiry, OAuth state expiry, token expiry). */
export abstract class Clock {
  abstract now(): Date;
}

@Injectable()
export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
