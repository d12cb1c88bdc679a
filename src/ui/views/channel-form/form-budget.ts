// The form's lines, shared out on a short terminal. Its title and the lines under
// it (a blank, "creating…", the service's refusal, "Discard what you typed?") are
// always drawn; the fields and an open list of checks or groups share the rest. An
// open list is what is being edited: it has its rows (as many as it has, up to
// PICKER_ROWS) before the fields, which keep at least the focused one, and any room
// left after the fields. Both scroll to their cursor. Drawn
// whole, they were squeezed by Ink into lines over one another (at 60x16 the list's
// title ran through the field above it).

export interface FormNeeds {
  /** The title's lines, and what is always drawn under the fields. */
  fixed: number;
  /** One line a field. */
  fields: number;
  /** An open list: its lines besides its rows (title, search, "nothing matches"), and its options. */
  picker: { lines: number; options: number } | null;
}

export interface FormPlan {
  /** Field lines drawn, at least one (the focused field). */
  fields: number;
  /** Lines for the list's rows, its position line among them when it cannot show every option. */
  picker: number;
}

/** Rows an open list has before the fields. */
export const PICKER_ROWS = 8;

export function formBudget(height: number, needs: FormNeeds): FormPlan {
  const room = Math.max(0, height - needs.fixed);
  if (!needs.picker) return { fields: Math.max(1, Math.min(needs.fields, room)), picker: 0 };
  const { lines, options } = needs.picker;
  const fields = Math.max(1, Math.min(needs.fields, room - lines - Math.min(options, PICKER_ROWS)));
  return { fields, picker: Math.max(Math.min(options, 1), Math.min(options, room - lines - fields)) };
}
