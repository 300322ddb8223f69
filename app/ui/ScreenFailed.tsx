// Whatever a screen throws while it renders in the browser (data it cannot use, a bug), the
// visitor keeps a page: a translated message where the screen was, never a blank one.
import { Component, type ReactNode } from "react";
import type { Message } from "../i18n/translate";

interface Props {
  /** The translated message shown instead of the screen. */
  message: Message;
  children: ReactNode;
}

export class ScreenFailed extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidCatch(error: unknown): void {
    console.error("a screen failed to render", error);
  }

  render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="screen">
        <p role="alert">{this.props.message}</p>
      </main>
    );
  }
}
