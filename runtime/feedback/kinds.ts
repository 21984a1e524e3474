// The closed vocabularies of feedback and reviews: the stores type their records with them, the
// request schemas (runtime/http/request-schemas.ts) and the command line offer them as choices.
export const FEEDBACK_KINDS = ['bug', 'wrong_data', 'missing', 'pricing', 'idea', 'other'] as const;
export const USEFULNESS = ['useful', 'partly', 'not_useful'] as const;
