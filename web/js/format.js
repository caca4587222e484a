/* Words and numbers as the page shows them: pure functions, no DOM. The words come
 * from the catalog (i18n.js). */

import { englishMessage, fmtUnit, t } from './i18n.js';

export const VARIANTS = ['bridge', 'blitz', 'domains'];
export const SEATS = ['blue', 'red'];
export const BLOCKS = ['regular', 'irregular'];

export const other = (seat) => (seat === 'blue' ? 'red' : 'blue');
/** A cell (the wire's 0-based `[row, column]`) as players read it: counted from 1, as the
 * rule pages and the board's labels count rows and columns. */
export const cellText = (cell) => `(${cell[0] + 1},${cell[1] + 1})`;
/** A variant as the language's rule page names it (Bridge: Γέφυρα, Ponte, Мост, Puente). */
export const variantName = (variant) => (VARIANTS.includes(variant) ? t(`variant.${variant}`) : variant);
/** A block layout (`regular`, `irregular`) in words. */
// The coach's ladder, simplest first: a board's grade and a room's range are words of it.
export const GRADES = ['naked_single', 'hidden_single', 'locked_candidates', 'pairs', 'beyond', 'guess'];
export const gradeName = (grade) => (GRADES.includes(grade) ? t(`review.reading.${grade}`) : grade);

export const blocksName = (blocks) => (BLOCKS.includes(blocks) ? t(`blocks.${blocks}`) : blocks);
/**
 * A room's name: the catalog's for the club's own rooms, as long as the server still
 * names the room as the English catalog does (a room the club renamed or added keeps
 * the server's title); else the server's title, else the room's id.
 */
export function roomName(id, title) {
  const key = `room.name.${id}`;
  const english = englishMessage(key);
  if (english !== null && (title === undefined || title === null || title === english)) return t(key);
  return title || id;
}
/**
 * The variants to name beside a room's name (`room`, in words): those its name does not
 * already say — the Bridge room plays Bridge, and "Bridge Bridge" says it twice.
 */
export const variantsBeside = (room, variants) => variants.filter(
  (variant) => !String(room).toLocaleLowerCase().includes(String(variant).toLocaleLowerCase()));
/** A seat's colour in words. */
export const seatName = (seat) => (SEATS.includes(seat) ? t(`seat.${seat}`) : seat);

export function fmtClock(ms) {
  if (ms === null || ms === undefined) return '—';
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

export function fmtDuration(ms) {
  if (ms === null || ms === undefined) return t('time.no_limit');
  if (ms % 60000 === 0) return fmtUnit(ms / 60000, 'minute');
  return fmtUnit(Math.round(ms / 1000), 'second');
}

/**
 * A result in words; `players` maps seats to `{name}` (or to a name), `you` the viewer's
 * seat; `sides` how the board lies where the words are read ('flat' or 'turned', see
 * geometry.js `layout`), which names the sides a winner connected; null: not named (a
 * line that stays while the screen may turn).
 */
/** A seat's goal in Bridge and Blitz, naming its sides as the board lies ('flat', 'turned'). */
export const goalText = (seat, sides = 'flat') => t(`player.goal_${seat}${sides === 'turned' ? '_turned' : ''}`);

export function resultText(result, players, variant, you, sides = 'flat') {
  if (!result) return '';
  const name = (seat) => (players && players[seat] ? (players[seat].name || players[seat]) : seatName(seat));
  const winner = result.winner;
  if (result.by === 'aborted') return t('result.aborted');
  if (!winner) return t('result.draw');
  const loser = other(winner);
  const who = winner === you ? t('result.you_win') : t('result.wins', { name: name(winner) });
  switch (result.by) {
    case 'goal':
      if (variant === 'domains') {
        const table = result.block_table;
        return table
          ? t('result.majority_score', { who, won: table[winner], lost: table[loser], count: table.undecided })
          : t('result.majority', { who });
      }
      if (!sides) return t('result.connected', { who });
      return t(`result.connected_${winner}${sides === 'turned' ? '_turned' : ''}`, { who });
    case 'resign':
    case 'time': {
      // Who lost, said first: "ana resigned — you win", "You ran out of time — bob wins".
      const how = result.by === 'resign' ? 'resigned' : 'time';
      if (winner === you) return t(`result.${how}_you_win`, { name: name(loser) });
      if (loser === you) return t(`result.you_${how}`, { winner: name(winner) });
      return t(`result.${how}`, { name: name(loser), winner: name(winner) });
    }
    default:
      return t('result.other', { who, by: result.by });
  }
}
