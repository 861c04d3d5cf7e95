import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A migration class that sends its `up` (or `down`) statements in order, one query each. TypeORM creates one instance
 * of each class in MIGRATIONS and records the instance's `name` once `up` has run; the name ends in the migration's
 * 13-digit timestamp, by which TypeORM orders them.
 */
export function sqlMigration(name: string, statements: { up: readonly string[]; down: readonly string[] }) {
  return class implements MigrationInterface {
    readonly name = name;

    async up(queryRunner: QueryRunner): Promise<void> {
      for (const sql of statements.up) await queryRunner.query(sql);
    }

    async down(queryRunner: QueryRunner): Promise<void> {
      for (const sql of statements.down) await queryRunner.query(sql);
    }
  };
}
