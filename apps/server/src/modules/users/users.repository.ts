import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { User, normalizeEmail } from './user.entity';

@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<User | null> {
    return manager.findOneBy(User, { id });
  }

  findByEmail(email: string, manager: EntityManager = this.dataSource.manager): Promise<User | null> {
    return manager.findOneBy(User, { email: normalizeEmail(email) });
  }

  async insert(user: User, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.insert(User, user);
  }

  async update(id: string, changes: Partial<Pick<User, 'displayName' | 'disabled'>>, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.update(User, { id }, changes);
  }
}
