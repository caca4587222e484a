/* The board's api (chessground's cut): board/model.js works out what each cell is
 * (pure), board/render.js draws it, board/events.js reports the pointer and the keys.
 * The page holds one Board per holder and hands it a model to draw. */

import { listen } from './board/events.js';
import { focusCell, lightZones, renderBoard } from './board/render.js';

export class Board {
  /**
   * @param {Element} holder  the element the SVG goes in
   * @param {object} hooks
   * @param {(index: number|null) => void} hooks.onHover   pointer or focus over a cell
   * @param {(index: number) => void} hooks.onActivate     a click, Enter or Space on a cell
   * @param {(index: number) => void} hooks.onFocus        the arrow keys moved the focus
   * @param {() => number} hooks.size                      the board's size now (0: none)
   */
  constructor(holder, hooks) {
    this.holder = holder;
    this.view = null;
    listen(holder, { ...hooks, moveFocus: (index) => focusCell(holder, index) });
  }

  /** Draw `model` (a board/model.js BoardModel; null: no board). */
  set(model) {
    this.view = model ? model.view : null;
    renderBoard(this.holder, model);
  }

  /** Light the three zones of cell `index` (null: none) without drawing anew. */
  lightZones(index) {
    lightZones(this.holder, this.view, index);
  }
}
