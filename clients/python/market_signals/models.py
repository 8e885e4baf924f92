"""The API's answers as pydantic models, named as in /openapi.json (`__schema__`); check_models.py keeps them in step with it."""

from __future__ import annotations

from typing import Any, ClassVar, Optional

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """An answer; fields as the API spells them."""

    model_config = ConfigDict(extra="allow", frozen=True)
    __schema__: ClassVar[str]


class LoginResponse(Model):
    __schema__ = "LoginResponse"
    token: str
    expiresIn: int


class Me(Model):
    __schema__ = "Me"
    id: str
    email: str
    role: str
    createdAt: str
    credential: Optional[dict[str, Any]] = None


class Usage(Model):
    __schema__ = "Usage"
    client: dict[str, Any]
    statsMisses: dict[str, Any]


class TrendingToken(Model):
    __schema__ = "TrendingToken"
    token: str
    name: str
    mentions: int
    smartMoneyMentions: int
    priceChange24h: Optional[float]


class TrendingTokenList(Model):
    __schema__ = "TrendingTokenList"
    data: list[TrendingToken]
    cachedAt: str


class TrendingCa(Model):
    __schema__ = "TrendingCa"
    address: str
    chain: str
    mentions: int
    smartMoneyMentions: int
    firstSeenAt: str


class TrendingCaList(Model):
    __schema__ = "TrendingCaList"
    data: list[TrendingCa]
    cachedAt: str


class NewsItem(Model):
    __schema__ = "NewsItem"
    id: str
    text: str
    author: str
    authorFollowers: int
    publishedAt: str
    tokens: list[str]
    engagementScore: float


class NewsPage(Model):
    __schema__ = "NewsPage"
    data: list[NewsItem]
    pagination: dict[str, Any]
    cachedAt: str


class AccountCalls(Model):
    """An account's record as a caller over the last 30 days."""

    __schema__ = "AccountCalls"
    window: str
    calls: int
    hits: int
    pending: int
    misses: int
    hitRate: Optional[float]
    medianLeadMinutes: Optional[float]


class UsernameStats(Model):
    __schema__ = "UsernameStats"
    username: str
    indexScore: float
    smartMoneyRank: Optional[int]
    totalPosts: int
    avgEngagement: float
    topTokens: list[Any]
    cachedAt: str
    calls: AccountCalls


class SentimentRecord(Model):
    __schema__ = "SentimentRecordOutput"
    token: str
    score: float
    label: str
    mentions: int
    positive: int
    neutral: int
    negative: int
    sample: dict[str, Any]
    confidence: float
    cachedAt: str


class SentimentHistory(Model):
    __schema__ = "SentimentHistory"
    token: str
    interval: str
    points: list[dict[str, Any]]
    cachedAt: str


class TokenHistory(Model):
    __schema__ = "TokenHistory"
    token: str
    interval: str
    points: list[dict[str, Any]]
    cachedAt: str


class MindshareList(Model):
    __schema__ = "MindshareList"
    window: str
    data: list[dict[str, Any]]
    cachedAt: str


class TokenMindshare(Model):
    __schema__ = "TokenMindshare"
    token: str
    window: str
    interval: str
    points: list[dict[str, Any]]
    cachedAt: str


class Pairlist(Model):
    __schema__ = "Pairlist"
    pairs: list[str]
    refresh_period: int
    cachedAt: str


class Caller(Model):
    __schema__ = "Caller"
    username: str
    followers: int
    calls: int
    hits: int
    pending: int
    misses: int
    hitRate: Optional[float]
    medianLeadMinutes: Optional[float]


class CallersLeaderboard(Model):
    __schema__ = "CallersLeaderboard"
    window: str
    sort: str
    minCalls: int
    data: list[Caller]
    cachedAt: str


class FirstCaller(Model):
    __schema__ = "FirstCaller"
    username: str
    calledAt: str
    leadMinutes: int
    followers: int
    post: dict[str, Any]


class Breakout(Model):
    __schema__ = "Breakout"
    at: str
    subject: str
    chain: Optional[str] = None
    callers: int
    firstCallers: list[FirstCaller]


class TokenCallers(Model):
    __schema__ = "TokenCallers"
    token: str
    window: str
    breakouts: list[Breakout]
    cachedAt: str


class Story(Model):
    __schema__ = "Story"
    id: str
    parentId: Optional[str] = None
    title: str
    terms: list[str]
    tokens: list[str]
    contracts: list[str]
    posts: int
    postIds: list[str]
    authors: int
    smartAuthors: int
    firstPoster: str
    firstSeenAt: str
    peakAt: str
    lastSeenAt: str
    status: str
    score: float
    scoreChange: float
    sentiment: float


class StoryList(Model):
    __schema__ = "StoryList"
    window: str
    data: list[Story]
    cachedAt: str


class StoryScorePoint(Model):
    __schema__ = "StoryScorePoint"
    at: str
    score: float


class StoryWithScores(Story):
    """StoryDetail's `data` (inline in the document, so no schema of its own): a story and its score at each refresh."""

    scores: list[StoryScorePoint]


class StoryDetail(Model):
    __schema__ = "StoryDetail"
    data: StoryWithScores
    posts: list[NewsItem]
    cachedAt: str


class AlertRule(Model):
    __schema__ = "AlertRule"
    id: str
    name: str
    condition: dict[str, Any]
    channels: list[dict[str, Any]]
    cooldownSeconds: int
    enabled: bool
    disabledReason: Optional[str]
    createdAt: str
    updatedAt: str
    secretRotation: Optional[dict[str, Any]]


class CreatedAlert(AlertRule):
    __schema__ = "CreatedAlert"
    secret: str


class AlertList(Model):
    __schema__ = "AlertList"
    data: list[AlertRule]


class DeliveryList(Model):
    __schema__ = "DeliveryList"
    data: list[dict[str, Any]]


class TestQueued(Model):
    __schema__ = "TestQueued"
    eventId: str


MODELS: tuple[type[Model], ...] = (
    LoginResponse, Me, Usage, TrendingToken, TrendingTokenList, TrendingCa, TrendingCaList, NewsItem, NewsPage,
    UsernameStats, SentimentRecord, SentimentHistory, TokenHistory, MindshareList, TokenMindshare, Pairlist,
    Caller, CallersLeaderboard, FirstCaller, Breakout, TokenCallers, Story, StoryList, StoryScorePoint, StoryDetail,
    AlertRule, CreatedAlert, AlertList, DeliveryList, TestQueued,
)
