// The check view's lines, shared out on a short terminal. What identifies the
// check (its header, its locations, the connection's trouble, an action's notice,
// the results and a result row to open) is always drawn; the rest gives way in
// this order: the actions taken, the 30-day strip, the sparkline, the alert
// panel, the maintenance panel. Had they all been drawn, Ink squeezed the boxes
// and drew lines over one another: at 60x16 the check's own name was gone.

/** Lines each part needs when drawn whole. */
export interface Needs {
  header: number;
  banner: number;
  locations: number;
  maintenance: number;
  alerts: number;
  audit: number;
  notice: number;
  error: number;
}

export interface Plan {
  maintenance: boolean;
  alerts: boolean;
  audit: boolean;
  strip: boolean;
  sparkline: boolean;
  /** Lines for the location breakdown: fewer than it needs only when the rest is already gone. */
  locations: number;
  /** Result rows under the table's header: at least one. */
  results: number;
}

/** The results' filter line and summary line. */
const SUMMARY = 2;
/** The results table's header and the one row that can be opened. */
const RESULTS_MIN = 2;

/** The optional parts, the first to give way first. */
const GIVE_WAY = ['audit', 'strip', 'sparkline', 'alerts', 'maintenance'] as const;

export function budget(height: number, needs: Needs): Plan {
  const optional: Record<(typeof GIVE_WAY)[number], number> = {
    audit: needs.audit,
    strip: 1,
    sparkline: 1,
    alerts: needs.alerts,
    maintenance: needs.maintenance,
  };
  const fixed = needs.header + needs.banner + needs.notice + needs.error + SUMMARY + RESULTS_MIN;
  const drawn = new Set<string>(GIVE_WAY);
  const used = () =>
    fixed + needs.locations + GIVE_WAY.reduce((n, k) => n + (drawn.has(k) ? optional[k] : 0), 0);
  for (const part of GIVE_WAY) if (used() > height) drawn.delete(part);
  // The breakdown keeps its header, the worst location and the line saying what else there is.
  const over = Math.max(0, used() - height);
  const locations = Math.max(Math.min(needs.locations, 3), needs.locations - over);
  const drawnLines = used() - needs.locations + locations;
  return {
    maintenance: drawn.has('maintenance'),
    alerts: drawn.has('alerts'),
    audit: drawn.has('audit'),
    strip: drawn.has('strip'),
    sparkline: drawn.has('sparkline'),
    locations,
    // The table's header and its first row are in drawnLines; every line left is a row more.
    results: Math.max(1, height - drawnLines + 1),
  };
}
