//! The guest's view of the results cache: the `results.d.ts` virtual file
//! a model reads (GA-6.5).

use super::types::ResultsLimits;

/// The `results.d.ts` virtual file: the results contract (GA-6.5).
#[must_use]
pub fn results_declaration(limits: &ResultsLimits) -> String {
    format!(
        r#"/** A saved result: pass `id` to results.load in a later cell of this reply. */
type CodeModeResultReference = {{
  id: string;
  /** UTF-8 bytes of the value's compact JSON. */
  bytes: number;
  /** Array length, object key count, or 1 for a scalar. */
  count: number;
  /** Observed, bounded sample shapes and nested array counts; not a schema. */
  shape: string;
  /** The whole value as JSON when it is at most 256 bytes, else a bounded sample. */
  preview: string;
  previewTruncated: boolean;
}};

/*
 * Limits and lifetime:
 * - at most {entries} references and {bytes} bytes of JSON per reply; no eviction: when full,
 *   save fails until you delete references;
 * - references expire when the reply ends (and on abort or restart); ids are never reused;
 * - unavailable in restartSafe and headless cells;
 * - an oversized final object or array of an interactive cell is saved automatically and
 *   returned as {{ truncated: true, reference, guidance }};
 * - previews walk at most 128 values, 5 levels and 16 keys per object, list the 8 largest
 *   arrays, sample 2 levels and 6 fields, and the whole descriptor stays within 768 bytes.
 */
declare const results: {{
  /** Save a value for later cells of this reply: `return await results.save(await tool({{}}));` */
  save(value: unknown): Promise<CodeModeResultReference>;
  /** A detached JSON copy of a saved value. */
  load(id: string): Promise<unknown>;
  /** Delete a saved value and free its capacity. */
  delete(id: string): Promise<boolean>;
}};
"#,
        entries = limits.max_entries,
        bytes = limits.max_bytes
    )
}
