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
    for path in ["languages?collection=xhotpotqa","distributions?collection=xhotpotqa","review?collection=xhotpotqa","?collection=xhotpotqa"]:
        for rep in range(2):
            c0=chrome_cpu(); t0=time.perf_counter()
            page.goto(f"{base}/{path}", wait_until="domcontentloaded"); wait_until_drawn(page)
            c1=chrome_cpu(); t1=time.perf_counter()
            page.screenshot(path="/tmp/x.png", full_page=True)
            c2=chrome_cpu(); t2=time.perf_counter()
            page.screenshot(path="/tmp/x.jpg", full_page=True, type="jpeg", quality=85)
            c3=chrome_cpu(); t3=time.perf_counter()
            page.screenshot(path="/tmp/y.png")
            c4=chrome_cpu(); t4=time.perf_counter()
            h=page.evaluate("document.documentElement.scrollHeight")
            print(f"{path[:20]:20s} h={h} load {t1-t0:.2f}s/{c1-c0:.2f}cpu  fullpng {t2-t1:.2f}/{c2-c1:.2f}  fulljpg {t3-t2:.2f}/{c3-c2:.2f}  viewpng {t4-t3:.2f}/{c4-c3:.2f}", flush=True)
    b.close()
