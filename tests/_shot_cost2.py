import os, sys, time, tempfile
from pathlib import Path
import glob
class psutil:
    pass
sys.path.insert(0, str(Path(__file__).parent))
import conftest  # env
from browser_server import serving
from chromium import CHROMIUM, CHROME_ARGS, wait_until_drawn
from playwright.sync_api import sync_playwright

def chrome_cpu():
    t=0
    for d in glob.glob('/proc/[0-9]*'):
        try:
            st=open(d+'/stat').read()
        except OSError: continue
        name=st[st.index('(')+1:st.rindex(')')]
        if 'chrom' in name:
            f=st[st.rindex(')')+2:].split()
            t+=(int(f[11])+int(f[12]))/os.sysconf('SC_CLK_TCK')
    return t

log=Path(tempfile.mkdtemp())/"s.log"
with serving(log) as base, sync_playwright() as p:
    b=p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROME_ARGS)
    ctx=b.new_context(viewport={"width":1400,"height":1000}); page=ctx.new_page()
    page.goto(f"{base}/?collection=xhotpotqa", wait_until="domcontentloaded"); wait_until_drawn(page)
    for rep in range(2):
        for path in ["languages?collection=xhotpotqa","distributions?collection=xhotpotqa","review?collection=xhotpotqa","?collection=xhotpotqa", "calibration?collection=xhotpotqa"]:
            c0=chrome_cpu(); t0=time.perf_counter()
            ok=page.evaluate("""href => { const a = document.querySelector(`[data-testid="stSidebar"] a[href="${href}"]`); if (a) a.click(); return !!a; }""", path)
            if not ok: page.goto(f"{base}/{path}", wait_until="domcontentloaded")
            page.wait_for_function("p => location.href.endsWith(p)", arg=path)
            wait_until_drawn(page)
            c1=chrome_cpu(); t1=time.perf_counter()
            c2=chrome_cpu(); t2=time.perf_counter()
            page.goto(f"{base}/{path}", wait_until="domcontentloaded"); wait_until_drawn(page)
            c3=chrome_cpu(); t3=time.perf_counter()
            print(f"{path[:20]:20s} link={ok} click {t1-t0:.2f}s/{c1-c0:.2f}cpu  goto {t3-t2:.2f}/{c3-c2:.2f}", flush=True)
    b.close()
