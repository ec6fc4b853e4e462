import { RenderError } from '../errors.ts';
import type { Assertion, CharTest, ParsedRegex, RegexNode } from './syntax.ts';

/** One instruction of the matcher's program (Thompson's construction, Pike's captures). */
export type Instruction =
  | { op: 'char'; test: CharTest }
  | { op: 'split'; first: number; second: number }
  | { op: 'jump'; to: number }
  | { op: 'save'; slot: number }
  | { op: 'assert'; assertion: Assertion }
  | { op: 'match' };

/** Programs past this size are refused (large counted repetitions of large groups). */
const MAX_PROGRAM = 20_000;

export function compileProgram(parsed: ParsedRegex): Instruction[] {
  const program: Instruction[] = [];
  const emit = (instruction: Instruction): number => {
    if (program.length >= MAX_PROGRAM) throw new RenderError('the regular expression is refused: it is too large');
    program.push(instruction);
    return program.length - 1;
  };
  // Group 0 is the whole match.
  emit({ op: 'save', slot: 0 });
  compile(parsed.root, program, emit);
  emit({ op: 'save', slot: 1 });
  emit({ op: 'match' });
  return program;
}

function compile(node: RegexNode, program: Instruction[], emit: (instruction: Instruction) => number): void {
  switch (node.kind) {
    case 'char':
      emit({ op: 'char', test: node.test });
      return;
    case 'assert':
      emit({ op: 'assert', assertion: node.assertion });
      return;
    case 'sequence':
      for (const item of node.items) compile(item, program, emit);
      return;
    case 'group':
      if (node.index !== null) emit({ op: 'save', slot: node.index * 2 });
      compile(node.body, program, emit);
      if (node.index !== null) emit({ op: 'save', slot: node.index * 2 + 1 });
      return;
    case 'alternation': {
      // split L1, next; L1: option; jump end; next: split L2, ... ; the last option needs no split.
      const jumps: number[] = [];
      node.options.forEach((option, index) => {
        if (index < node.options.length - 1) {
          const split = emit({ op: 'split', first: program.length + 1, second: -1 });
          compile(option, program, emit);
          jumps.push(emit({ op: 'jump', to: -1 }));
          (program[split] as { second: number }).second = program.length;
        } else {
          compile(option, program, emit);
        }
      });
      for (const jump of jumps) (program[jump] as { to: number }).to = program.length;
      return;
    }
    case 'repeat': {
      const { body, min, max, lazy } = node;
      for (let i = 0; i < min; i++) compile(body, program, emit);
      if (max === Number.POSITIVE_INFINITY) {
        // L: split body, out (greedy) — body — jump L.
        const split = emit({ op: 'split', first: -1, second: -1 });
        compile(body, program, emit);
        emit({ op: 'jump', to: split });
        setSplit(program[split], split + 1, program.length, lazy);
        return;
      }
      // Each optional copy: split body, out — all outs go to the end.
      const splits: number[] = [];
      for (let i = min; i < max; i++) {
        splits.push(emit({ op: 'split', first: -1, second: -1 }));
        compile(body, program, emit);
      }
      for (const split of splits) setSplit(program[split], split + 1, program.length, lazy);
      return;
    }
  }
}

/** Greedy tries the body first, lazy tries leaving first. */
function setSplit(instruction: Instruction | undefined, body: number, out: number, lazy: boolean): void {
  const split = instruction as { first: number; second: number };
  split.first = lazy ? out : body;
  split.second = lazy ? body : out;
}
