# Hugging Face Docker Space (the Streamlit SDK is deprecated there): serves the embedded demo.
FROM python:3.11-slim
RUN useradd -m -u 1000 user
ENV HOME=/home/user PATH=/home/user/.local/bin:$PATH JUDGESCOPE_CACHE=/home/user/.cache/judgescope \
    PYTHONUNBUFFERED=1
WORKDIR /home/user/app
COPY --chown=user requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY --chown=user . .
USER user
EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).status != 200)"
CMD ["python", "-m", "judgescope.web.serve", "--server.address=0.0.0.0", "--server.port=8501", "--server.headless=true"]
