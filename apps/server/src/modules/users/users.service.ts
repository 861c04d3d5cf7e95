import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../common/clock';
import { User } from './user.entity';
import { normalizeEmail } from './user-names';
import { UsersRepository } from './users.repository';

// The users module's API beside the service: how users are named and matched by email.
export { displayNameOf, normalizeEmail } from './user-names';

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  findById(id: string): Promise<User | null> {
    return this.users.findById(id);
  }

  /** The users with these ids, by id (unknown ids are left out). */
  async findByIds(ids: string[]): Promise<Map<string, User>> {
    return new Map((await this.users.findByIds(ids)).map((user) => [user.id, user]));
  }

  findByEmail(email: string): Promise<User | null> {
    return this.users.findByEmail(email);
  }

  /**
   * The user with this email (matched case-insensitively), created when missing. An existing user is left
   * as it is, unless `fillMissingName` is set: then a display name it lacks is filled in. Users are shared
   * by every organization, so only a caller that knows no other organization shows this user may set it
   * (otherwise one organization would choose the name another organization's members see).
   * Call it inside a unit of work (UnitOfWork.run) when creating a membership right after.
   */
  async findOrCreate(input: { email: string; displayName?: string | null; fillMissingName?: boolean }): Promise<{ user: User; created: boolean }> {
    const existing = await this.users.findByEmail(input.email);
    const displayName = input.displayName?.trim() || null;
    if (existing) {
      if (input.fillMissingName && !existing.displayName && displayName) {
        await this.users.update(existing.id, { displayName });
        existing.displayName = displayName;
      }
      return { user: existing, created: false };
    }
    const user = Object.assign(new User(), { id: randomUUID(), email: normalizeEmail(input.email), displayName, disabled: false, createdAt: this.clock.now() });
    await this.users.insert(user);
    return { user, created: true };
  }

  async setDisabled(id: string, disabled: boolean): Promise<void> {
    await this.users.update(id, { disabled });
  }
}
