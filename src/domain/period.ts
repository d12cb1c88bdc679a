// How long each period of the API is: the service's windows and the console's
// chart axes measure the same spans.
import type { Period } from '../api/schemas/index.js';

export const PERIOD_MS: Record<Period, number> = {
  '1h': 3_600_000,
  '6h': 21_600_000,
  '24h': 86_400_000,
  '7d': 604_800_000,
  '30d': 2_592_000_000,
};
