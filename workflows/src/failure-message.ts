// The message worth recording for a failure is its innermost cause's: a failed activity reaches
// the workflow as ActivityFailure("Activity task failed") and a failed child as ChildWorkflowFailure,
// with the activity's own error (the reason) at the end of the cause chain.
export function failureMessage(err: unknown): string {
  let root = err;
  while (root instanceof Error && root.cause instanceof Error) root = root.cause;
  return root instanceof Error ? root.message : String(root);
}
