import { Injectable } from '@nestjs/common';
import { HashedTokenRepository, type KeysetPosition } from '../../database/record-repository';
import { EmbedLink } from './embed-link.entity';

@Injectable()
export class EmbedLinksRepository extends HashedTokenRepository<EmbedLink> {
  protected readonly entity = EmbedLink;

  /**
   * Newest first (id breaks ties), at most `limit`, only those before the (createdAt, id) position `before`;
   * `service` narrows to one service, `diagram` to the links showing that diagram (its own and the service's).
   */
  listForOrganization(
    organizationId: string,
    { limit, before, service, diagram }: { limit: number; before?: KeysetPosition; service?: string; diagram?: string },
  ): Promise<EmbedLink[]> {
    const query = this.newestFirst('e', organizationId, { limit, before });
    if (service !== undefined) query.andWhere('e.service_name = :service', { service });
    if (diagram !== undefined) query.andWhere('(e.diagram = :diagram OR e.diagram IS NULL)', { diagram });
    return query.getMany();
  }
}
