/**
 * Where in the parsed text Mermaid was when it threw an error that is not a jison syntax error.
 *
 * A syntax error carries jison's error hash with the offending token's position. Every other error Mermaid
 * raises while reading a diagram has none, or a made-up one: its diagram databases throw while a grammar action
 * runs (flowchart "No such shape", the edge limit, linkStyle out of range), the sequence database applies the
 * whole statement list after parsing ("Trying to inactivate an inactive participant" with a placeholder hash at
 * line 1), and lexer actions throw directly (state "State name must be a single word"). Mermaid still knows
 * where it was at that moment; this module watches its jison parsers — without changing what they build — to
 * keep that:
 *
 * - an error thrown inside a grammar action gets the location of the production being reduced, i.e. of the
 *   statement whose action called the database;
 * - for sequence diagrams, every statement object the grammar builds is remembered with its location, and the
 *   statement list is handed to Mermaid's `apply` one statement at a time (exactly the order and calls of its own
 *   loop), so an error thrown while applying gets that statement's location — or none, never the whole document's;
 * - an error thrown by a lexer action gets the location of the token it matched, and a lexical error ("Unrecognized
 *   text", whose hash has a line but no column) the position where the unrecognized text starts.
 *
 * Locations are 1-based lines and 0-based columns of the text the parser read (jison's `first_line`/`first_column`).
 */

export interface ParserLocation {
  first_line: number;
  first_column: number;
}

/** `statement`: thrown while Mermaid built the diagram (no location when the statement's is unknown); `lexer`: while reading tokens. */
export interface ErrorOrigin {
  source: 'statement' | 'lexer';
  location?: ParserLocation;
}

/** The members of a generated jison parser (and its lexer) that are wrapped here. */
interface JisonLexer {
  yylloc?: ParserLocation & { last_line: number; last_column: number };
  performAction: (this: JisonLexer, ...args: unknown[]) => unknown;
  parseError: (this: JisonLexer, message: string, hash: { loc?: unknown }) => unknown;
}
interface JisonParser {
  performAction: (this: { $?: unknown; _$?: ParserLocation }, ...args: unknown[]) => unknown;
  lexer: JisonLexer;
  /** `[left-hand symbol, length]` per production number. */
  productions_?: [number, number][];
  symbols_?: Record<string, number>;
}
/** A diagram definition's parser: the jison parser itself, or a wrapper whose `parser` is it (flowchart). */
export interface MermaidParser {
  parser?: unknown;
}

const origins = new WeakMap<object, ErrorOrigin>();
const statementLocations = new WeakMap<object, ParserLocation>();
const watched = new WeakSet<object>();

/** Where Mermaid was when it threw `error`, if it was thrown inside a watched parser and is not a syntax error. */
export function errorOrigin(error: unknown): ErrorOrigin | undefined {
  return typeof error === 'object' && error !== null ? origins.get(error) : undefined;
}

function remember(error: unknown, origin: ErrorOrigin): void {
  // The innermost handler sees the error first and knows best; outer ones leave it alone.
  if (typeof error === 'object' && error !== null && !origins.has(error)) origins.set(error, origin);
}

const locationOf = (location: ParserLocation | undefined): ParserLocation | undefined =>
  location ? { first_line: location.first_line, first_column: location.first_column } : undefined;

/**
 * Starts watching a diagram kind's parser. Idempotent. `applyStatements`: the database applies the statement list
 * after parsing (sequence diagrams), so statements are remembered with their locations.
 */
export function watchParser(parser: MermaidParser, options: { applyStatements: boolean }): void {
  const jison = (parser.parser ?? parser) as JisonParser;
  if (watched.has(jison) || typeof jison.performAction !== 'function' || !jison.lexer) return;
  watched.add(jison);

  const performAction = jison.performAction;
  const applying = new WeakSet<object>();
  // The start rule spans the whole document; what its action throws (a database's final checks) has no statement.
  const startSymbol = jison.symbols_?.['start'];
  const isStartRule = (production: unknown) => startSymbol !== undefined && jison.productions_?.[production as number]?.[0] === startSymbol;
  // jison calls performAction(yytext, yyleng, yylineno, yy, yystate, $$, _$) once per reduction: named parameters, no
  // rest array, because this runs thousands of times per diagram.
  jison.performAction = function (this: { $?: unknown; _$?: ParserLocation }, yytext: unknown, yyleng: unknown, yylineno: unknown, yy: unknown, yystate: unknown, $$: unknown, _$: unknown) {
    const database = yy as { apply?: (statement: unknown) => void } | undefined;
    if (options.applyStatements && database && typeof database.apply === 'function' && !applying.has(database)) {
      applying.add(database);
      database.apply = applyOneByOne(database.apply);
    }
    let result: unknown;
    try {
      result = performAction.call(this, yytext, yyleng, yylineno, yy, yystate, $$, _$);
    } catch (error) {
      remember(error, { source: 'statement', location: isStartRule(yystate) ? undefined : locationOf(this._$) });
      throw error;
    }
    if (options.applyStatements) rememberStatements(this.$, this._$);
    return result;
  };

  const lexer = jison.lexer;
  const lexerAction = lexer.performAction;
  // Once per token: (yy, yy_, rule, condition), named for the same reason.
  lexer.performAction = function (this: JisonLexer, yy: unknown, lexerState: unknown, rule: unknown, condition: unknown) {
    try {
      return lexerAction.call(this, yy, lexerState, rule, condition);
    } catch (error) {
      remember(error, { source: 'lexer', location: locationOf(this.yylloc) });
      throw error;
    }
  };
  const lexerError = lexer.parseError;
  lexer.parseError = function (this: JisonLexer, message: string, hash: { loc?: unknown }) {
    try {
      return lexerError.call(this, message, hash);
    } catch (error) {
      // "Unrecognized text": the last token ended where the text nobody matches starts.
      const end = this.yylloc;
      if (!hash?.loc && end) remember(error, { source: 'lexer', location: { first_line: end.last_line, first_column: end.last_column } });
      throw error;
    }
  };
}

/**
 * Statement objects get the location of the innermost production that built them. A grammar action may return a
 * new list of fresh statements (a message with an activation is a message plus an activeStart/activeEnd); lists
 * seen before (a growing document) are not walked again, which keeps this linear.
 */
const seenLists = new WeakSet<object>();
function rememberStatements(value: unknown, location: ParserLocation | undefined): void {
  if (!location || typeof value !== 'object' || value === null) return;
  if (!Array.isArray(value)) {
    if (!statementLocations.has(value)) statementLocations.set(value, locationOf(location) as ParserLocation);
    return;
  }
  if (seenLists.has(value)) return;
  seenLists.add(value);
  for (const item of value) {
    if (typeof item === 'object' && item !== null && !Array.isArray(item) && !statementLocations.has(item)) {
      statementLocations.set(item, locationOf(location) as ParserLocation);
    }
  }
}

/**
 * Mermaid's `apply(list)` calls itself for each item of a list and handles one statement otherwise; this does the
 * same walk outside, so the statement being applied is known when it throws.
 */
function applyOneByOne(apply: (statement: unknown) => void): (statement: unknown) => void {
  const walk = (statement: unknown): void => {
    if (Array.isArray(statement)) {
      for (const item of statement) walk(item);
      return;
    }
    try {
      apply(statement);
    } catch (error) {
      const location = typeof statement === 'object' && statement !== null ? statementLocations.get(statement) : undefined;
      remember(error, { source: 'statement', location });
      throw error;
    }
  };
  return walk;
}
