import htm from 'htm';
import { h } from 'preact';

/** Preact's templates as tagged strings: values are always text or props, never parsed as markup. */
export const html = htm.bind(h);
