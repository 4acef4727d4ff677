// What a pane shows when its view fails to render or its code fails to load: a sentence and a way
// on, in that pane alone. Without it one view's error unmounted the whole console (a white page,
// every other pane and the console's terminal gone with it).

import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** What failed, for the sentence: "This view", "The console pane". */
  what: string;
  /** A new value (the pane's path) leaves a failure behind: the user has moved on. */
  resetKey: string;
  children: ReactNode;
}

interface State {
  failed: boolean;
}

export class PaneBoundary extends Component<Props, State> {
  state: State = { failed: false };
  private retry: HTMLButtonElement | null = null;

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`${this.props.what} could not be shown:`, error, info.componentStack);
  }

  componentDidMount(): void {
    if (this.state.failed) this.takeFocus();
  }

  componentDidUpdate(before: Props): void {
    if (this.state.failed && before.resetKey !== this.props.resetKey) this.setState({ failed: false });
    else if (this.state.failed) this.takeFocus();
  }

  /**
   * Focus left with the view (or the user was nowhere): the way on takes it, as a view's main list
   * would. A failed try again shows the sentence anew, and focus goes back to the button.
   */
  private takeFocus(): void {
    const here = document.activeElement;
    if (here === null || here === document.body) this.retry?.focus();
  }

  render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="page pane-failed" role="alert">
        <p>{this.props.what} could not be shown. Try again, or reload the console if it fails again.</p>
        <p>
          <button
            type="button"
            ref={(b) => {
              this.retry = b;
            }}
            onClick={() => this.setState({ failed: false })}
          >
            Try again
          </button>{' '}
          <button type="button" onClick={() => window.location.reload()}>
            Reload the console
          </button>
        </p>
      </div>
    );
  }
}
