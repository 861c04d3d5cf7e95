// @sc/contracts carries class-validator/class-transformer decorators that need the Reflect metadata API at load time.
import 'reflect-metadata';
import { setupZonelessTestEnv } from 'jest-preset-angular/setup-env/zoneless';

setupZonelessTestEnv();
