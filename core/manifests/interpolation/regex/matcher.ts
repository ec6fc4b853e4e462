import type { Budget } from '../budget.ts';
import type { Instruction } from './program.ts';
import { isWordChar } from './syntax.ts';

type Thread = { pc: number; captures: Array<number | undefined> };

/**
 * A Pike VM: every thread advances one character at a time, in priority order, so the match is the
 * one Python's backtracking `re` finds (leftmost, then by greedy/lazy preference), in time linear
 * in the text. Every thread step ticks the interpolation's budget.
 */
export function searchProgram(
  program: Instruction[],
  slotCount: number,
  text: readonly string[],
  from: number,
  budget: Budget,
): Array<number | undefined> | null {
  const marks = new Int32Array(program.length).fill(-1);
  let generation = 0;

  const assertionHolds = (assertion: string, position: number): boolean => {
    const before = text[position - 1];
    const after = text[position];
    switch (assertion) {
      case 'text_start':
        return position === 0;
      case 'text_end':
        return position === text.length;
      case 'python_end':
        return position === text.length || (position === text.length - 1 && after === '\n');
      case 'line_start':
        return position === 0 || before === '\n';
      case 'line_end':
        return position === text.length || after === '\n';
      case 'word_boundary':
      case 'not_word_boundary': {
        const boundary = (before !== undefined && isWordChar(before)) !== (after !== undefined && isWordChar(after));
        return assertion === 'word_boundary' ? boundary : !boundary;
      }
      default:
        return false;
    }
  };

  /** Follows jumps, splits, saves and assertions from `pc`, in priority order, adding the threads that wait on a character. */
  const addThread = (list: Thread[], pc: number, captures: Array<number | undefined>, position: number) => {
    const stack: Thread[] = [{ pc, captures }];
    while (stack.length) {
      const thread = stack.pop()!;
      budget.tick();
      if (marks[thread.pc] === generation) continue;
      marks[thread.pc] = generation;
      const instruction = program[thread.pc]!;
      switch (instruction.op) {
        case 'jump':
          stack.push({ pc: instruction.to, captures: thread.captures });
          break;
        case 'split':
          stack.push({ pc: instruction.second, captures: thread.captures });
          stack.push({ pc: instruction.first, captures: thread.captures });
          break;
        case 'save': {
          const captures = thread.captures.slice();
          captures[instruction.slot] = position;
          stack.push({ pc: thread.pc + 1, captures });
          break;
        }
        case 'assert':
          if (assertionHolds(instruction.assertion, position)) stack.push({ pc: thread.pc + 1, captures: thread.captures });
          break;
        default:
          list.push(thread);
      }
    }
  };

  const start = new Array<number | undefined>(slotCount).fill(undefined);
  let current: Thread[] = [];
  generation++;
  addThread(current, 0, start, from);
  let matched: Array<number | undefined> | null = null;
  for (let position = from; ; position++) {
    generation++;
    const next: Thread[] = [];
    for (const thread of current) {
      budget.tick();
      const instruction = program[thread.pc]!;
      if (instruction.op === 'match') {
        matched = thread.captures;
        break; // lower-priority threads lose
      }
      if (instruction.op === 'char' && position < text.length && instruction.test(text[position]!))
        addThread(next, thread.pc + 1, thread.captures, position + 1);
    }
    if (position >= text.length) break;
    // Not anchored: a new attempt starts at the next position, behind every running thread.
    if (matched === null) addThread(next, 0, start, position + 1);
    else if (next.length === 0) break;
    current = next;
  }
  return matched;
}
