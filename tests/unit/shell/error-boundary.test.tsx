import { render, screen } from '@testing-library/react';

import RouteError from '@/app/error';

describe('route error boundary', () => {
  it('shows a readable German fallback with a retry and a way home, and reports the error', () => {
    const reportError = jest.fn();
    window.reportError = reportError;
    const reset = jest.fn();
    const error = new Error('render failed');
    render(<RouteError error={error} reset={reset} />);

    expect(screen.getByRole('alert')).toHaveTextContent('Etwas ist schiefgelaufen');
    expect(screen.getByRole('link', { name: 'Zur Startseite' })).toHaveAttribute('href', '/');
    screen.getByRole('button', { name: 'Erneut versuchen' }).click();
    expect(reset).toHaveBeenCalledTimes(1);
    // Reported like an uncaught error, so the editor bridge can forward it when framed.
    expect(reportError).toHaveBeenCalledWith(error);
  });
});
