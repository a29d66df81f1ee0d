/** Accept headers sent by real clients (browser navigations, images, fetch/XHR libraries). */
export const BROWSER_ACCEPT_HEADERS = [
  // Chrome / Edge navigation
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
  // Firefox navigation
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  // Safari navigation
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  // Chrome <img>
  'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
  // axios / XHR
  'application/json, text/plain, */*',
  // fetch() default
  '*/*',
]

/** What an API route offers. */
export const OFFERS = ['application/json', 'text/html']
