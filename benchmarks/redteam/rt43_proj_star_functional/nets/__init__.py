from .blocks import *
from .blocks import ConvBlock, accumulate_and_step
