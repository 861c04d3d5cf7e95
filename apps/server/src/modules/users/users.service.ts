import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { User, normalizeEmail } from './user.entity';
import { UsersRepository } from './users.repository';

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  findById(id: string, manager?: EntityManager): Promise<User | null> {
    return this.users.findById(id, manager);
  }

  findByEmail(email: string, manager?: EntityManager): Promise<User | null> {
    return this.users.findByEmail(email, manager);
  }

  /**
   * The user with this email (matched case-insensitively), created when missing. An existing user is left
   * as it is, unless `fillMissingName` is set: then a display name it lacks is filled in. Users are shared
   * by every organization, so only a caller that knows no other organization shows this user may set it
   * (otherwise one organization would choose the name another organization's members see).
   * Call it inside a transaction (pass its manager) when creating a membership right after.
   */
  async findOrCreate(input: { email: string; displayName?: string | null; fillMissingName?: boolean }, manager?: EntityManager): Promise<{ user: User; created: boolean }> {
    const existing = await this.users.findByEmail(input.email, manager);
    const displayName = input.displayName?.trim() || null;
    if (existing) {
      if (input.fillMissingName && !existing.displayName && displayName) {
        await this.users.update(existing.id, { displayName }, manager);
        existing.displayName = displayName;
      }
      return { user: existing, created: false };
    }
    const user = Object.assign(new User(), { id: randomUUID(), email: normalizeEmail(input.email), displayName, disabled: false, createdAt: this.clock.now() });
    await this.users.insert(user, manager);
    return { user, created: true };
  }

  async setDisabled(id: string, disabled: boolean, manager?: EntityManager): Promise<void> {
    await this.users.update(id, { disabled }, manager);
  }
}
