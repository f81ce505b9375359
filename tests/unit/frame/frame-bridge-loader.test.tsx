import { render, waitFor } from '@testing-library/react';

import FrameBridgeLoader from '@/components/shell/FrameBridgeLoader';

const mockStop = jest.fn();
const mockStartBridge = jest.fn(() => ({ stop: mockStop }));
const mockModuleLoaded = jest.fn();

jest.mock('@/lib/frame/bridge', () => {
  mockModuleLoaded();
  return { startBridge: () => mockStartBridge() };
});

const selfDescriptor = Object.getOwnPropertyDescriptor(window, 'self') as PropertyDescriptor;

/** jsdom's `top` cannot be replaced, but `self` can: making it differ is what framing looks like. */
function pretendFramed(): void {
  Object.defineProperty(window, 'self', { value: {}, configurable: true });
}

afterEach(() => {
  Object.defineProperty(window, 'self', selfDescriptor);
  jest.clearAllMocks();
});

it('renders nothing', () => {
  const { container } = render(<FrameBridgeLoader />);
  expect(container).toBeEmptyDOMElement();
});

it('does not even load the bridge for a visitor on the top-level page', async () => {
  render(<FrameBridgeLoader />);
  // Give a dynamic import every chance to happen.
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(mockModuleLoaded).not.toHaveBeenCalled();
  expect(mockStartBridge).not.toHaveBeenCalled();
});

it('loads and starts the bridge when framed, and stops it on unmount', async () => {
  pretendFramed();
  const { unmount } = render(<FrameBridgeLoader />);
  await waitFor(() => expect(mockStartBridge).toHaveBeenCalledTimes(1));
  // The first import in this file: proves the check above would have seen one.
  expect(mockModuleLoaded).toHaveBeenCalledTimes(1);
  unmount();
  expect(mockStop).toHaveBeenCalledTimes(1);
});

it('does not start the bridge when unmounted before the import finished', async () => {
  pretendFramed();
  const { unmount } = render(<FrameBridgeLoader />);
  unmount();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(mockStartBridge).not.toHaveBeenCalled();
});
