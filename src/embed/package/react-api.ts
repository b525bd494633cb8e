/**
 * The declarations the package ships for `tabcode/react` (types only; react.ts implements them and
 * checks that it does). `react` is the host's own.
 */
import type { CSSProperties, ReactElement } from 'react';
import type { EmbedConfig, EmbedEvent, EmbedHandle, EmbedWarning } from '../config.js';

export type { EmbedConfig, EmbedEvent, EmbedHandle, EmbedWarning } from '../config.js';

export interface TabcodeProps extends EmbedConfig {
  className?: string;
  style?: CSSProperties;
  /** Every session event as a host sees it. */
  onEvent?: (event: EmbedEvent) => void;
  /** The playground's handle, once its agent is up. */
  onReady?: (handle: EmbedHandle) => void;
  /** A refused config field. */
  onWarning?: (warning: EmbedWarning) => void;
}

/** A playground as a React component: its props are the embed config. */
export declare function Tabcode(props: TabcodeProps): ReactElement;
