import { fireEvent, render, screen, within } from '@testing-library/react';

import ComingSoon from '@/components/pages/ComingSoon';
import AccessRestricted, { ACCESS_RESTRICTED_MESSAGE } from '@/components/screens/AccessRestricted';
import AdminNote from '@/components/screens/AdminNote';
import HomeLink from '@/components/screens/HomeLink';
import LoadingScreen from '@/components/screens/LoadingScreen';
import NotFoundSentence from '@/components/screens/NotFoundSentence';
import PageNotFound from '@/components/screens/PageNotFound';

const push = jest.fn();
// The app router is only mounted inside Next.js; HomeLink needs nothing of it but push().
jest.mock('next/navigation', () => ({ useRouter: () => ({ push }) }));
beforeEach(() => push.mockClear());

describe('ComingSoon', () => {
  it('says in German that the new website is almost ready', () => {
    render(<ComingSoon />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Unsere neue Website ist fast startklar');
    expect(screen.getByText(/neuen digitalen\s+Auftritt zu präsentieren/)).toBeInTheDocument();
    expect(screen.getByText('Schauen Sie bald wieder vorbei – es lohnt sich.')).toBeInTheDocument();
  });
});

describe('PageNotFound', () => {
  it('names the requested page and offers a way home', () => {
    render(<PageNotFound sentence={<NotFoundSentence pageName="Preise" />} />);
    expect(screen.getByRole('main')).toHaveAttribute('lang', 'en');
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveTextContent('The page “Preise” could not be found in this application.');
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
  });

  it('falls back to a general sentence when the name is unknown', () => {
    render(<PageNotFound />);
    expect(screen.getByText('The page you requested could not be found in this application.')).toBeInTheDocument();
  });

  it('renders page names as text, never as markup', () => {
    render(<PageNotFound sentence={<NotFoundSentence pageName={'<img src=x onerror=alert(1)>'} />} />);
    expect(screen.getByRole('main').querySelector('img')).toBeNull();
    expect(screen.getByRole('main')).toHaveTextContent('<img src=x onerror=alert(1)>');
  });

  it('shows the admin note only when given one', () => {
    const { rerender } = render(<PageNotFound />);
    expect(screen.queryByRole('note')).toBeNull();
    rerender(<PageNotFound adminNote={<AdminNote />} />);
    expect(screen.getByRole('note')).toHaveTextContent(/AI hasn't implemented this page yet/);
    expect(screen.getByRole('note')).toHaveTextContent(/Ask it to implement it in the chat/);
  });
});

describe('HomeLink', () => {
  it('navigates inside the app on a plain click, as next/link does', () => {
    render(<HomeLink className="x">Go Home</HomeLink>);
    const link = screen.getByRole('link', { name: 'Go Home' });
    expect(link).toHaveAttribute('href', '/');
    expect(fireEvent.click(link)).toBe(false);
    expect(push).toHaveBeenCalledWith('/');
  });

  it.each([{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 }])(
    'leaves a click that asks for another tab or window to the browser: %p',
    (init) => {
      render(<HomeLink className="x">Go Home</HomeLink>);
      expect(fireEvent.click(screen.getByRole('link', { name: 'Go Home' }), init)).toBe(true);
      expect(push).not.toHaveBeenCalled();
    },
  );
});

describe('LoadingScreen', () => {
  it('is a full-screen status with an accessible name', () => {
    render(<LoadingScreen />);
    const status = screen.getByRole('status', { name: 'Seite wird geladen' });
    expect(status.className).toContain('fixed inset-0');
  });

  it('only spins when motion is allowed', () => {
    render(<LoadingScreen label="Lädt" />);
    const spinner = screen.getByRole('status', { name: 'Lädt' }).querySelector('[aria-hidden="true"]');
    expect(spinner?.className).toContain('motion-safe:animate-spin');
    expect(spinner?.className).not.toMatch(/(^|\s)animate-spin/);
  });
});

describe('AccessRestricted', () => {
  it('explains the restriction and lists the three suggestions', () => {
    render(<AccessRestricted />);
    expect(screen.getByRole('main')).toHaveAttribute('lang', 'en');
    expect(screen.getByRole('heading', { name: 'Access Restricted' })).toBeInTheDocument();
    expect(screen.getByText(ACCESS_RESTRICTED_MESSAGE)).toBeInTheDocument();
    expect(ACCESS_RESTRICTED_MESSAGE).toBe(
      'You are not registered to use this application. Please contact the app administrator to request access.',
    );
    const items = within(screen.getByRole('list'))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      'Verify you are logged in with the correct account',
      'Contact the app administrator for access',
      'Try logging out and back in again',
    ]);
  });
});
