/* Words and numbers as the page shows them: pure functions, no DOM. */

export const VARIANTS = { bridge: 'Bridge', blitz: 'Blitz', domains: 'Domains' };
export const SEATS = ['blue', 'red'];

export const other = (seat) => (seat === 'blue' ? 'red' : 'blue');
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
export const cellText = (cell) => `(${cell[0]},${cell[1]})`;
export const variantName = (variant) => VARIANTS[variant] || variant;

export function fmtClock(ms) {
  if (ms === null || ms === undefined) return '—';
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

export function fmtDuration(ms) {
  if (ms === null || ms === undefined) return 'no limit';
  if (ms % 60000 === 0) return `${ms / 60000} min`;
  return `${Math.round(ms / 1000)} s`;
}

const lowerFirst = (text) => `${text.charAt(0).toLowerCase()}${text.slice(1)}`;

/** A result in words; `players` maps seats to `{name}` (or to a name), `you` the viewer's seat. */
export function resultText(result, players, variant, you) {
  if (!result) return '';
  const name = (seat) => (players && players[seat] ? (players[seat].name || players[seat]) : seat);
  const winner = result.winner;
  if (result.by === 'aborted') return 'Aborted — no result, unrated';
  if (!winner) return 'Draw by agreement';
  const loser = other(winner);
  const who = winner === you ? 'You win' : `${name(winner)} wins`;
  const lost = loser === you ? 'You' : name(loser);
  switch (result.by) {
    case 'goal':
      if (variant === 'domains') {
        const table = result.block_table;
        const score = table ? ` (${table[winner]}–${table[loser]}, ${table.undecided} undecided)` : '';
        return `${who}: a majority of the blocks${score}`;
      }
      return `${who}: sides connected (${winner === 'blue' ? 'top ↔ bottom' : 'left ↔ right'})`;
    case 'resign':
      return `${lost} resigned — ${lowerFirst(who)}`;
    case 'time':
      return `${lost} ran out of time — ${lowerFirst(who)}`;
    default:
      return `${who} (${result.by})`;
  }
}
