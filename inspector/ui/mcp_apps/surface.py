"""The sandboxed QWebEngineView an app runs in. Imported only when an app is shown (it loads
QtWebEngine, from the optional PySide6-Addons).

- A dedicated off-the-record QWebEngineProfile per view: no cookies, cache or storage kept,
  no file access (LocalContentCanAccessFileUrls off), no plugins, no clipboard, no window
  opening, every permission request denied.
- One QWebChannel object, in an isolated world (ApplicationWorld) the app's scripts cannot
  reach: a `post(str)` slot, a `deliver(str)` signal and the page text. Only JSON strings
  cross; nothing of Qt or the session is exposed. A custom URL scheme would carry the same
  strings, but must be registered before the QApplication exists, which would load
  QtWebEngine at every start; the channel needs nothing until an app is shown.
- No navigation away (acceptNavigationRequest allows the shell and the app's srcdoc frame
  only), no popups (createWindow gives none), no network but the CSP's domains (the CSP in
  the page, and the same rule in a request interceptor); each refusal is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from PySide6.QtCore import Property, QFile, QIODevice, QObject, Qt, QUrl, Signal, Slot
from PySide6.QtWebChannel import QWebChannel
from PySide6.QtWebEngineCore import (
    QWebEnginePage,
    QWebEngineProfile,
    QWebEngineScript,
    QWebEngineSettings,
    QWebEngineUrlRequestInfo,
    QWebEngineUrlRequestInterceptor,
)
from PySide6.QtWebEngineWidgets import QWebEngineView
from PySide6.QtWidgets import QWidget

from inspector.features.mcp_apps.csp import Category, NetworkPolicy
from inspector.features.mcp_apps.shell import BRIDGE_JS
from inspector.ui.mcp_apps.webengine import prepare_sandbox

__all__ = ["AppSurface"]

_Type = QWebEngineUrlRequestInfo.ResourceType
_CONNECT: Final = {
    _Type.ResourceTypeXhr,
    _Type.ResourceTypePing,
    _Type.ResourceTypeWebSocket,
    _Type.ResourceTypeCspReport,
    _Type.ResourceTypeJson,
}
_FRAME: Final = {_Type.ResourceTypeSubFrame, _Type.ResourceTypeNavigationPreloadSubFrame}
_Attr = QWebEngineSettings.WebAttribute
_OFF: Final = (
    _Attr.LocalContentCanAccessFileUrls,
    _Attr.LocalContentCanAccessRemoteUrls,
    _Attr.JavascriptCanOpenWindows,
    _Attr.JavascriptCanAccessClipboard,
    _Attr.JavascriptCanPaste,
    _Attr.PluginsEnabled,
    _Attr.PdfViewerEnabled,
    _Attr.AllowRunningInsecureContent,
    _Attr.AllowGeolocationOnInsecureOrigins,
    _Attr.AllowWindowActivationFromJavaScript,
    _Attr.ScreenCaptureEnabled,
    _Attr.DnsPrefetchEnabled,
    _Attr.HyperlinkAuditingEnabled,
    _Attr.NavigateOnDropEnabled,
    _Attr.FullScreenSupportEnabled,
    _Attr.AutoLoadIconsForPage,
    _Attr.TouchIconsEnabled,
)
_ON: Final = (_Attr.WebRTCPublicInterfacesOnly, _Attr.JavascriptEnabled)


class _Bridge(QObject):
    """The one object the page's bridge sees: strings in, strings out."""

    deliver = Signal(str)
    posted = Signal(str)

    def __init__(self, page_text: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._page = page_text

    @Slot(str)
    def post(self, text: str) -> None:
        self.posted.emit(text)

    def _get_page(self) -> str:
        return self._page

    page = Property(str, _get_page, constant=True)


class _Interceptor(QWebEngineUrlRequestInterceptor):
    blocked = Signal(str, str)  # url, reason

    def __init__(self, policy: NetworkPolicy, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.policy = policy

    def interceptRequest(self, info: QWebEngineUrlRequestInfo) -> None:
        url = info.requestUrl().toString()
        kind = info.resourceType()
        if kind == _Type.ResourceTypeMainFrame:
            scheme = info.requestUrl().scheme()
            reason = None if scheme in ("data", "about") else "the app may not replace the page"
        else:
            category: Category = (
                "connect" if kind in _CONNECT else "frame" if kind in _FRAME else "resource"
            )
            reason = self.policy.check(url, category)
        if reason is not None:
            info.block(True)
            self.blocked.emit(url, reason)


class _SandboxPage(QWebEnginePage):
    refused = Signal(str)  # what was refused, and why
    console = Signal(int, str)  # level, message

    def __init__(self, profile: QWebEngineProfile, parent: QObject | None = None) -> None:
        super().__init__(profile, parent)
        self.shell_loaded = False

    def acceptNavigationRequest(
        self, url: QUrl | str, kind: QWebEnginePage.NavigationType, is_main_frame: bool
    ) -> bool:
        qurl = url if isinstance(url, QUrl) else QUrl(url)
        text = qurl.toString()
        if is_main_frame and not self.shell_loaded and qurl.scheme() == "data":
            self.shell_loaded = True
            return True
        if not is_main_frame and text in ("about:srcdoc", "about:blank"):
            return True
        where = "the page" if is_main_frame else "the app's frame"
        self.refused.emit(f"navigation of {where} to {text[:300]} refused ({kind.name})")
        return False

    def createWindow(self, _kind: QWebEnginePage.WebWindowType) -> QWebEnginePage:
        self.refused.emit("the app tried to open a window; refused (no popups)")
        return None  # type: ignore[return-value]  # no window: Qt takes None

    def javaScriptConsoleMessage(
        self,
        level: QWebEnginePage.JavaScriptConsoleMessageLevel,
        message: str,
        line: int,
        source: str,
    ) -> None:
        self.console.emit(level.value, f"{message} ({source or 'app'}:{line})")


def _qwebchannel_js() -> str:
    f = QFile(":/qtwebchannel/qwebchannel.js")
    if not f.open(QIODevice.OpenModeFlag.ReadOnly):
        raise RuntimeError("qwebchannel.js is missing from QtWebChannel")
    try:
        return bytes(f.readAll().data()).decode("utf-8")
    finally:
        f.close()


def _script(name: str, source: str) -> QWebEngineScript:
    script = QWebEngineScript()
    script.setName(name)
    script.setSourceCode(source)
    script.setWorldId(QWebEngineScript.ScriptWorldId.ApplicationWorld)
    script.setInjectionPoint(QWebEngineScript.InjectionPoint.DocumentReady)
    script.setRunsOnSubFrames(False)
    return script


class AppSurface(QObject):
    """The view, its private profile, page, interceptor and channel."""

    def __init__(
        self,
        shell: str,
        page_text: str,
        policy: NetworkPolicy,
        parent_widget: QWidget,
        on_message: Callable[[str], None],
        on_refused: Callable[[str], None],
        on_console: Callable[[int, str], None],
        on_loaded: Callable[[bool], None],
        on_crashed: Callable[[str], None],
    ) -> None:
        super().__init__(parent_widget)
        prepare_sandbox()  # before the first WebEngine object (the context reads the flags)
        # No storage name: off the record. No parent: it must outlive its page (dispose).
        self.profile = QWebEngineProfile()
        self.profile.setHttpCacheType(QWebEngineProfile.HttpCacheType.MemoryHttpCache)
        self.profile.setPersistentCookiesPolicy(
            QWebEngineProfile.PersistentCookiesPolicy.NoPersistentCookies
        )
        self.interceptor = _Interceptor(policy, self.profile)
        self.interceptor.blocked.connect(
            lambda url, why: on_refused(f"request to {url[:300]} blocked: {why}")
        )
        self.profile.setUrlRequestInterceptor(self.interceptor)
        self.page = _SandboxPage(self.profile)
        settings = self.page.settings()
        for attribute in _OFF:
            settings.setAttribute(attribute, False)
        for attribute in _ON:
            settings.setAttribute(attribute, True)
        self.page.permissionRequested.connect(self._deny)
        self.page.refused.connect(on_refused)
        self.page.console.connect(on_console)
        self.page.loadFinished.connect(on_loaded)
        self.page.renderProcessTerminated.connect(
            lambda status, code: on_crashed(f"the app's page process ended ({status.name}, {code})")
        )
        self.bridge = _Bridge(page_text, self)
        self.bridge.posted.connect(on_message)
        self.channel = QWebChannel(self)
        self.channel.registerObject("mcpAppHost", self.bridge)
        self.page.setWebChannel(self.channel, QWebEngineScript.ScriptWorldId.ApplicationWorld)
        scripts = self.page.scripts()
        scripts.insert(_script("qwebchannel", _qwebchannel_js()))
        scripts.insert(_script("mcp-app-bridge", BRIDGE_JS))
        self.view = QWebEngineView(parent_widget)
        self.view.setObjectName("appWebView")
        self.view.setPage(self.page)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)
        self.page.setHtml(shell)

    def _deny(self, permission: Any) -> None:
        permission.deny()

    def send(self, text: str) -> None:
        self.bridge.deliver.emit(text)

    def reload(self, shell: str) -> None:
        self.page.shell_loaded = False
        self.page.setHtml(shell)

    def dispose(self) -> None:
        """The view, then its page, then the profile (a profile must outlive its pages)."""
        self.bridge.posted.disconnect()
        profile = self.profile
        self.page.destroyed.connect(lambda _obj=None: profile.deleteLater())
        self.view.hide()
        self.view.deleteLater()
        self.page.deleteLater()
        self.deleteLater()
