/**
 * The hint to add after an issue's message, or undefined when there is none or the message already says it:
 * most issues write their hint into the message ("… Hint: did you mean API?", "… Did you mean \"shape\"?"),
 * a few (an unknown database) keep it apart. Every printer uses this so a hint is never shown twice.
 */
export function hintToAdd(message: string, hint: string | undefined): string | undefined {
  return hint && !message.toLowerCase().includes(hint.toLowerCase()) ? hint : undefined;
}
