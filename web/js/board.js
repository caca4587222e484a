/* The board's api (chessground's cut): board/model.js works out what each cell is
 * (pure), board/render.js draws it, board/events.js reports the pointer and the keys.
 * The page holds one Board per holder and hands it a model to draw. */

import { listen } from './board/events.js';
import { focusCell, lightZones, renderBoard } from './board/render.js';

// A narrow portrait screen (a phone held upright): the board is drawn turned, tall and
// narrow, so that a cell is big enough to tap (geometry.js `layout`, docs/client.md).
const TURN_WHEN = '(orientation: portrait) and (max-width: 700px)';

export class Board {
  /**
   * @param {Element} holder  the element the SVG goes in
   * @param {object} hooks
   * @param {(index: number|null) => void} hooks.onHover   pointer or focus over a cell
   * @param {(index: number) => void} hooks.onActivate     a click, Enter or Space on a cell
   * @param {(index: number) => void} hooks.onFocus        the arrow keys moved the focus
   * @param {() => number} hooks.size                      the board's size now (0: none)
   * @param {() => void} hooks.onTurn                      the screen turned: draw again
   */
  constructor(holder, hooks) {
    this.holder = holder;
    this.view = null;
    const portrait = window.matchMedia(TURN_WHEN);
    /** Drawn turned (geometry.js `layout`): the page words the sides by it. */
    this.turned = portrait.matches;
    portrait.addEventListener('change', (event) => {
      this.turned = event.matches;
      hooks.onTurn();
    });
    listen(holder, { ...hooks, moveFocus: (index) => focusCell(holder, index) });
  }

  /** Draw `model` (a board/model.js BoardModel; null: no board), flat or turned. */
  set(model) {
    this.view = model ? model.view : null;
    renderBoard(this.holder, model && { ...model, turned: this.turned });
  }

  /** Light the three zones of cell `index` (null: none) without drawing anew. */
  lightZones(index) {
    lightZones(this.holder, this.view, index);
  }
}
