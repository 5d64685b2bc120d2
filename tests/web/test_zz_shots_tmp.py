import os

W = [int(w) for w in os.environ.get("SHOT_W", "320,360,390,1280").split(",")]
PAGES = os.environ.get("SHOT_P", "wordle,oware,yatzy").split(",")


def test_shots(browser, live_server):
    for w in W:
        ctx = browser.new_context(
            viewport={"width": w, "height": 844 if w < 1000 else 900},
            is_mobile=w < 1000,
            has_touch=w < 1000,
            base_url=live_server,
        )
        p = ctx.new_page()
        for g in PAGES:
            p.goto(f"/{g}")
            p.wait_for_timeout(1500)
            sw = p.evaluate("() => document.documentElement.scrollWidth")
            wide = p.evaluate(
                """() => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 0.5).slice(0,8).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().width))"""
            )
            print(w, g, "scrollWidth", sw, wide)
            p.screenshot(path=f"/tmp/pb/{g}-{w}.png")
        ctx.close()
