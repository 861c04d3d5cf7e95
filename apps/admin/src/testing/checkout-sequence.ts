/**
 * The payment sequence issue readers saw drawn out of order ("200 OK" must come after "show 3DS"): an activated
 * call, alt/else with a note, a loop, and a participant (S) first met in a message rather than declared.
 * Shared by the sequence diagram's unit spec and the browser test that syncs it.
 */
export const CHECKOUT_SEQUENCE = `sequenceDiagram
  participant C as Customer
  participant A as Payments API
  C->>+A: POST /payments
  alt needs 3DS
    A-->>C: show 3DS
    Note over C,A: the customer confirms at the bank
  else card accepted
    A-->>-C: 200 OK
  end
  loop every minute
    A->>S: poll settlement
  end
`;
