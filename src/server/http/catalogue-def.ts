// One metric of the catalogue as this service writes it (catalogue.ts and its groups).
import type { MetricGroupName } from '../../api/schemas/index.js';

// Written out, not derived from MetricDefinition: its loose index signature
// would swallow the named fields under Omit.
export type Def = {
  group: MetricGroupName;
  name: string;
  displayName: string;
  description: string;
  unit: string;
  dataType: string;
  availableFor: string[];
  calculationMethod: string;
  precision: number;
  range: { min: number; max: number };
  category: string;
  goodThreshold?: number;
  needsImprovementThreshold?: number;
  calculation: string;
  examples: Array<{ value: number; useCase: string }>;
};

export const PCT_RANGE = { min: 0, max: 100 };
