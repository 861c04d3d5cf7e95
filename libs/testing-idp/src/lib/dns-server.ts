import dns2 from 'dns2';

const { Packet } = dns2;

/**
 * A real DNS server on loopback (UDP, dns2) for the TXT lookups of domain verification: `records` maps a name to its
 * TXT strings; other names answer NXDOMAIN; names in `failing` answer SERVFAIL (a resolver that cannot answer).
 */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`: a value for SERVICE_DNS_SERVERS. */
  address: string;
  records: Map<string, string[]>;
  failing: Set<string>;
  /** Every name asked, in order. */
  queries: string[];
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const records = new Map<string, string[]>();
  const failing = new Set<string>();
  const queries: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const [question] = request.questions;
      const name = question.name.toLowerCase();
      queries.push(name);
      if (failing.has(name)) return void send(Packet.createErrorResponseFromRequest(request, 2));
      const texts = records.get(name);
      if (!texts) return void send(Packet.createErrorResponseFromRequest(request, 3));
      const response = Packet.createResponseFromRequest(request);
      for (const data of texts) response.answers.push(Packet.createResourceFromQuestion(question, { type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data }));
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { address: `127.0.0.1:${addresses.udp?.port}`, records, failing, queries, close: () => server.close() };
}
