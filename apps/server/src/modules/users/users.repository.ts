import { Injectable } from '@nestjs/common';
import { User } from './user.entity';
import { normalizeEmail } from './user-names';
import { In } from 'typeorm';
import { TransactionalRepository } from '../../database/unit-of-work';

@Injectable()
export class UsersRepository extends TransactionalRepository {
  findById(id: string): Promise<User | null> {
    return this.manager.findOneBy(User, { id });
  }

  findByIds(ids: string[]): Promise<User[]> {
    return ids.length ? this.manager.findBy(User, { id: In([...new Set(ids)]) }) : Promise.resolve([]);
  }

  findByEmail(email: string): Promise<User | null> {
    return this.manager.findOneBy(User, { email: normalizeEmail(email) });
  }

  async insert(user: User): Promise<void> {
    await this.manager.insert(User, user);
  }

  async update(id: string, changes: Partial<Pick<User, 'displayName' | 'disabled'>>): Promise<void> {
    await this.manager.update(User, { id }, changes);
  }
}
