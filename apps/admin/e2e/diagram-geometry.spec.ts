import { generatedTopology } from './support/generated-topology';
import { eventually, screenshot } from './support/browser';
import { C4_ORDERS } from './support/diagram-fixtures';
import { routeCrossings } from '@sc/diagram';
import { describeCrossing, drawnCrossings, drawnGeometry, layoutCrossings } from './support/geometry';
import { useE2eSession } from './support/session';
import { pushBundle, syncFile as file } from './support/sync';

/**
 * Drawings a person reads the right relationships from: on every kind the canvas draws, with the shapes that used to
 * put lines through unrelated boxes (a node between two groups, a database inside a C4 boundary with edges leaving it,
 * three levels of nesting, a collapsed group), no edge passes through a box it does not connect, through a frame it
 * neither enters nor leaves, or through a label, and no label sits on a box.
 */

/** The new user's topology: two groups, a node between them, a publish edge and a worker with a note and a bucket. */
const TOPOLOGY = `flowchart LR
  subgraph clients [Clients]
    mobile[Mobile app]
    web[Web shop]
  end
  partner[Partner API]
  subgraph backend [Backend]
    api[API]
    pricing[Pricing rules]
    orders[Orders]
    worker[[Invoice worker]]
  end
  bus([Event bus])
  invoices[(Invoice bucket)]
  note[Invoice note]
  db[(Orders DB)]
  email[Email provider]
  auth[Auth]
  mobile --> api
  web --> api
  partner --> api
  web --> auth
  mobile --> auth
  api --> pricing
  api --> orders
  orders -->|publishes OrderPlaced| bus
  bus --> worker
  worker --> invoices
  worker -.-> note
  orders --> db
  worker --> email
`;

const NESTED = `flowchart TB
  subgraph platform [Platform]
    subgraph cluster [Cluster]
      subgraph pod [Pod]
        app[App]
        sidecar[Sidecar]
      end
      ingress[Ingress]
    end
    monitor[Monitoring]
  end
  user[User] --> ingress
  ingress --> app
  app --> sidecar
  sidecar --> monitor
  app --> store[(Store)]
  user --> monitor
`;

const STATES = `stateDiagram-v2
  [*] --> Placed
  Placed --> Paid : payment captured
  state Fulfilling {
    [*] --> Picking
    Picking --> Packing
    Packing --> Shipped
  }
  Paid --> Fulfilling
  Fulfilling --> Delivered
  Placed --> Cancelled : timeout
  Delivered --> [*]
`;

const FLOW = `flowchart LR
  client[Client] -->|POST /checkout| gateway[Gateway]
  subgraph checkout [Checkout service]
    validate[Validate cart]
    reserve[Reserve stock]
    charge[Charge card]
  end
  gateway --> validate
  validate --> reserve
  reserve --> charge
  charge --> psp[Payment provider]
  validate --> client
`;

const JOBS = `flowchart LR
  subgraph nightly [Nightly]
    export[Export orders]
    reconcile[Reconcile payments]
  end
  export --> reconcile
  reconcile --> report[Send report]
  cleanup[Clean up carts] --> export
`;

describe('what the canvas draws reads as its graph', () => {
  const e2e = useE2eSession({ setupToken: `e2e-geometry-${Date.now()}-0123456789`, browser: { viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' }, timeout: 30000, organization: true });
  const base = () => `${e2e.server.baseUrl}/orgs/acme/services/geometry`;

  beforeAll(async () => {
    const small = generatedTopology(60, 78, 4, 12);
    const large = generatedTopology(1000, 1300, 20, 200);
    await pushBundle(e2e.server, e2e.syncToken, { name: 'geometry', description: 'Crossing-prone shapes' }, [
      { kind: 'architecture-diagram', name: 'topology', file: file('.service/diagrams/topology.mmd', TOPOLOGY) },
      { kind: 'architecture-diagram', name: 'c4', file: file('.service/diagrams/c4.mmd', C4_ORDERS) },
      { kind: 'architecture-diagram', name: 'nested', file: file('.service/diagrams/nested.mmd', NESTED) },
      { kind: 'architecture-diagram', name: 'states', file: file('.service/diagrams/states.mmd', STATES) },
      { kind: 'architecture-diagram', name: 'small', file: file('.service/diagrams/small.mmd', small.mermaid), context: file('.service/diagrams/small.context.json', small.context) },
      { kind: 'architecture-diagram', name: 'large', file: file('.service/diagrams/large.mmd', large.mermaid), context: file('.service/diagrams/large.context.json', large.context) },
      { kind: 'database-schema', name: 'bench-db', engine: 'postgres', file: file('.service/schemas/bench.sql', 'CREATE TABLE orders (id uuid PRIMARY KEY);\n') },
      { kind: 'flow', name: 'checkout', file: file('.service/flows/checkout.mmd', FLOW) },
      { kind: 'job-dependencies', name: 'jobs', file: file('.service/jobs/job-dependencies.mmd', JOBS) },
    ]);
  });

  const canvas = () => e2e.page.getByTestId('diagram-canvas');

  /** Opens a page and waits until ELK's (or the server's) layout of what is on screen is drawn. */
  async function open(path: string): Promise<void> {
    await e2e.page.goto(`${base()}${path}`);
    await settled();
  }
  async function settled(): Promise<void> {
    await eventually(async () => {
      expect(await canvas().getAttribute('data-drawn')).not.toBeNull();
      expect(await canvas().getAttribute('data-layout')).toBe('done');
    }, 60000);
  }

  it.each([
    ['the topology with a node between two groups', '/diagrams/topology', 13],
    ['C4 boundaries, nested, holding a database, with edges leaving them', '/diagrams/c4', 5],
    ['three levels of nesting', '/diagrams/nested', 6],
    ['a state diagram with a composite state', '/diagrams/states', 0],
    ['a flow', '/flows/checkout', 6],
    ['job dependencies', '/jobs', 4],
    ['the 60-node benchmark diagram', '/diagrams/small', 60],
  ])('draws %s with no line through a box it does not connect', async (_name, path, nodes) => {
    await open(path);
    if (nodes) expect(await canvas().getAttribute('data-drawn')).toBe(String(nodes));
    const drawing = await drawnGeometry(e2e.page);
    expect(drawing.edges.length).toBeGreaterThanOrEqual(3);
    expect(routeCrossings(drawing).map(describeCrossing)).toEqual([]);
    // The check sees what is drawn: a box put on an edge's path, in the same screen coordinates, is crossed.
    const edge = drawing.edges.reduce((longest, candidate) => (candidate.points.length > longest.points.length ? candidate : longest));
    const middle = edge.points[Math.floor(edge.points.length / 2)];
    const planted = { ...drawing, nodes: { ...drawing.nodes, planted: { x: middle.x - 4, y: middle.y - 4, width: 8, height: 8 } } };
    expect(routeCrossings(planted).map(describeCrossing)).toContain(`${edge.key} crosses node planted`);
    await screenshot(e2e.page, `60-geometry${path.replace(/\//g, '-')}`);
  });

  it('keeps routes clear of boxes with a group collapsed, and again once it is expanded', async () => {
    await open('/diagrams/topology');
    await canvas().locator('[data-group-id=backend] button[aria-label="Hide details"]').click();
    await eventually(async () => expect(await canvas().getAttribute('data-drawn')).toBe('9'));
    await settled();
    expect(await canvas().locator('[data-edge-target=backend]').count()).toBeGreaterThan(0);
    expect(await drawnCrossings(e2e.page)).toEqual([]);
    await screenshot(e2e.page, '61-geometry-topology-collapsed');
    await canvas().locator('[data-group-id=backend] button[aria-label="Show details"]').click();
    await eventually(async () => expect(await canvas().getAttribute('data-drawn')).toBe('13'));
    await settled();
    expect(await drawnCrossings(e2e.page)).toEqual([]);
  });

  it('lays out the 1,000-node benchmark diagram with no crossing either', async () => {
    const { edges, crossings } = await layoutCrossings(e2e.context.request, `${e2e.server.baseUrl}/api/v1/orgs/acme/services/geometry/diagrams/large`);
    expect(edges).toBe(1300);
    expect(crossings).toEqual([]);
  });
});
