import type { ArrangementLists } from '@sc/contracts';
import { applyArrangement, elkPlacements, isArranged, type ArrangedDrawing } from '@sc/diagram';
import type { ElkEngine, LayoutInput, LayoutResult, Point } from '@sc/diagram';

/**
 * The canvas's drawing of an arrangement over an automatic layout, with what the arrangement does not place (new
 * since it was saved, or auto-arranged) put where ELK proposes (libs/diagram `elkPlacements`), ELK running in the
 * layout workers as for the automatic layout. The drawing itself stays synchronous (a drag, an undo, a collapse is
 * drawn at once): a drawing that places something is first drawn with applyArrangement's own search, ELK is asked
 * meanwhile, and `proposalsArrived` is called when its answer is there for the same layout and arrangement — the
 * canvas then draws again, and this time the proposals are used. An ELK run that fails leaves the first drawing.
 */
export class ElkArrangedDrawing {
  /** The layout and arrangement ELK was last asked about, and its answer once there. */
  private asked: { automatic: LayoutResult; arrangement: ArrangementLists; proposals: ReadonlyMap<string, Point> | null } | null = null;

  constructor(private readonly elk: ElkEngine) {}

  /** `input`: the layout input of the drawing's model, built only when something is arranged. */
  drawing(input: () => LayoutInput, automatic: LayoutResult, arrangement: ArrangementLists | null, proposalsArrived: () => void): ArrangedDrawing {
    if (!isArranged(arrangement)) return { layout: automatic, placed: [] };
    const layoutInput = input();
    const asked = this.asked;
    if (asked && asked.automatic === automatic && asked.arrangement === arrangement) return applyArrangement(layoutInput, automatic, arrangement, asked.proposals ?? undefined);
    const drawing = applyArrangement(layoutInput, automatic, arrangement);
    if (drawing.placed.length === 0) return drawing;
    const question = { automatic, arrangement, proposals: null as ReadonlyMap<string, Point> | null };
    this.asked = question;
    elkPlacements(this.elk, layoutInput, automatic, arrangement).then(
      (proposals) => {
        if (this.asked !== question || proposals.size === 0) return;
        question.proposals = proposals;
        proposalsArrived();
      },
      // The page left, or ELK failed: the drawing made without the proposals stays.
      () => undefined,
    );
    return drawing;
  }
}
