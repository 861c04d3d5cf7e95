import { Global, Module } from '@nestjs/common';
import { Clock, SystemClock } from './clock';
import { SecretBox } from './crypto/secret-box';

/** Cross-cutting providers every module may inject: Clock and SecretBox. */
@Global()
@Module({
  providers: [{ provide: Clock, useClass: SystemClock }, SecretBox],
  exports: [Clock, SecretBox],
})
export class CommonModule {}
