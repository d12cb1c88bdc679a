// The demo's two HTML pages and the browser and multistep checks that visit
// them: a checkout page whose promo banner arrives late (a small, real layout
// shift) and whose payment always fails, and a signup form whose button
// reveals a greeting. Once a minute each, so a small machine is not kept busy
// by its browser. The payment journey fails at a step on purpose: its
// screenshot is what the console's result detail shows with `i`.

/** Config entries (validated with the rest of the demo config). */
export function browserChecks(http: string, everywhere: string[]) {
  return [
    {
      id: 'checkout-flow',
      name: 'Checkout flow (browser)',
      type: 'browser',
      target: `${http}/shop/checkout`,
      frequency: '60s',
      timeoutMs: 15000,
      assertions: [
        { source: 'STATUS_CODE', comparison: 'EQUALS', target: '200' },
        { source: 'TEXT_BODY', comparison: 'CONTAINS', target: 'Order summary' },
      ],
      locations: everywhere,
      group: 'commerce',
      tags: ['e2e'],
    },
    {
      id: 'signup-journey',
      name: 'Signup journey (multistep)',
      type: 'multistep',
      target: `${http}/signup`,
      frequency: '60s',
      timeoutMs: 15000,
      steps: [
        { action: 'waitFor', selector: '#email' },
        { action: 'type', selector: '#email', text: 'ada@example.com' },
        { action: 'click', selector: '#submit' },
        { action: 'assertText', selector: '#welcome', contains: 'Welcome, ada@example.com' },
      ],
      locations: ['eu-west'],
      group: 'core',
      tags: ['e2e'],
    },
    {
      id: 'checkout-payment',
      name: 'Checkout payment (multistep)',
      type: 'multistep',
      target: `${http}/shop/checkout`,
      frequency: '60s',
      timeoutMs: 15000,
      steps: [
        { action: 'assertVisible', selector: 'text=Order summary' },
        // The promo moves the page after its first paint (on purpose, for its layout shift):
        // a click before it lands may hit where the button was.
        { action: 'assertVisible', selector: '.promo' },
        { action: 'click', selector: 'role=button[name="Pay now"]' },
        { action: 'assertText', selector: '#payment', contains: 'Payment accepted' },
      ],
      locations: ['us-east'],
      group: 'commerce',
      tags: ['e2e'],
    },
  ];
}

export const CHECKOUT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Checkout - Demo Shop</title>
<style>
  body { font-family: sans-serif; margin: 0 auto; max-width: 720px; padding: 16px; }
  h1 { font-size: 40px; }
  .promo { background: #ffe9a8; padding: 12px; }
  table { width: 100%; border-collapse: collapse; }
  td { border-bottom: 1px solid #ddd; padding: 8px; }
</style></head>
<body>
  <div id="promo"></div>
  <h1>Order summary</h1>
  <table>
    <tr><td>Espresso beans, 1 kg</td><td>EUR 24.00</td></tr>
    <tr><td>Grinder cleaning tablets</td><td>EUR 9.50</td></tr>
    <tr><td><strong>Total</strong></td><td><strong>EUR 33.50</strong></td></tr>
  </table>
  <button id="pay">Pay now</button>
  <p id="payment"></p>
  <script>
    // The payment provider is down: the page says so in a red banner.
    document.getElementById('pay').addEventListener('click', () => {
      const p = document.getElementById('payment');
      p.textContent = 'Payment failed: the payment provider did not answer (error 502).';
      p.style.cssText = 'background:#c62828;color:#fff;padding:24px;font-size:24px';
    });
    // Injected after the first paint, above the content: the page moves a little.
    requestAnimationFrame(() => setTimeout(() => {
      document.getElementById('promo').innerHTML = '<p class="promo">Free shipping on orders over EUR 30</p>';
    }, 50));
  </script>
</body>
</html>`;

export const SIGNUP_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign up - Demo Shop</title>
<style>body { font-family: sans-serif; margin: 0 auto; max-width: 720px; padding: 16px; }</style></head>
<body>
  <h1>Create your account</h1>
  <form id="signup" onsubmit="return false">
    <label>Email <input id="email" type="email" autocomplete="off"></label>
    <button id="submit" type="submit">Sign up</button>
  </form>
  <p id="welcome" hidden></p>
  <script>
    document.getElementById('signup').addEventListener('submit', () => {
      const email = document.getElementById('email').value;
      const welcome = document.getElementById('welcome');
      welcome.textContent = email ? 'Welcome, ' + email + '!' : 'Please enter an email address.';
      welcome.hidden = false;
    });
  </script>
</body>
</html>`;
