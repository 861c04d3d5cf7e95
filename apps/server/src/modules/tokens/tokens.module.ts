import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiToken } from './api-token.entity';
import { TokensController } from './tokens.controller';
import { TokensRepository } from './tokens.repository';
import { TokensService } from './tokens.service';

@Module({
  imports: [TypeOrmModule.forFeature([ApiToken])],
  controllers: [TokensController],
  providers: [TokensRepository, TokensService],
  exports: [TokensService],
})
export class TokensModule {}
